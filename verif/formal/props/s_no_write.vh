// s-no-write: while the thread's PMBSR_EL1.S is set (`th_s_el1`, which irq-is-s proves
// equal to it) the unit starts no write to its buffer: a beat is offered only if it was already offered, and not taken, in the
// cycle before (the port's valid/ready rule keeps such a beat offered until it is taken,
// wr-hold). Arm ARM J1 SPEWriteToBuffer writes no byte while SPEProfilingStopped. The tap
// of the writer's own held-beat flag is the invariant the induction needs.
wire f_sheld;
reg f_held = 1'b0;
always @(posedge clk)
  f_held <= !reset && wr_valid && !wr_ready;
always @(*) begin
  if (!reset) begin
    if (th_s_el1 && !f_held)
      assert(!th_wr);
    assert(f_held == f_sheld);
  end
end
