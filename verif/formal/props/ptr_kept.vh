// ptr-kept: from the thread's profiling-synchronization handshake (psb_req and psb_done) until the
// unit tags a new op (the next record starts), the unit never changes PMBPTR: it changes
// only in the cycle after a register-port write of PMBPTR, so a PMBPTR that software
// writes after the handshake (Linux's restart at a new AUX head) stays as written. Taps:
// PMBPTR's flop and the tracker's phase (idle all that time: the induction's invariant).
wire [2:0] f_phase;
wire [63:0] f_ptr;
reg f_quiet = 1'b0;
reg f_sw = 1'b0;
reg [63:0] f_prev = 64'd0;
always @(posedge clk) begin
  if (reset)
    f_quiet <= 1'b0;
  else
    f_quiet <= (th_psb_req && th_psb_done && th_tag == 0) || (f_quiet && th_tag == 0);
  f_sw <= reg_en && reg_we && th_reg && reg_addr == REG_PMBPTR;
  f_prev <= f_ptr;
end
always @(*) begin
  if (!reset && f_quiet) begin
    assert(f_phase == PHASE_IDLE);
    if (!f_sw)
      assert(f_ptr == f_prev);
  end
end
