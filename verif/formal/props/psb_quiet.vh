// psb-quiet: after the thread's profiling-synchronization handshake completes (psb_req
// and psb_done), the unit writes nothing to its buffer until it tags a new op of it: no record of an op tagged
// before the PSB is written after it (Arm ARM D17.9), so software's stop sequence reads a
// final PMBPTR. f_quiet is set by the handshake in a cycle without a tag and held until a
// tag; the tracker's phase (tapped) is idle all that time, the invariant the induction
// needs.
wire [2:0] f_phase;
reg f_quiet = 1'b0;
always @(posedge clk) begin
  if (reset)
    f_quiet <= 1'b0;
  else
    f_quiet <= (th_psb_req && th_psb_done && th_tag == 0) || (f_quiet && th_tag == 0);
end
always @(*) begin
  if (!reset && f_quiet) begin
    assert(!th_wr);
    assert(f_phase == PHASE_IDLE);
  end
end
