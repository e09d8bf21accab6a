// wr-limit: no memory write at or past the limit the record was started under: every beat
// offered ends at or below the limit the writer took with the record (PMBLIMITR.LIMIT at
// its grant). The taps are the tracker's phase (PHASE_CHECK, PHASE_WRITING) and the
// writer's record base, limit and room verdict; the other assertions are the invariants
// the induction needs, each proven with it.
wire [2:0] f_phase;
wire [63:0] f_base, f_limit;
wire f_gone;
always @(*) begin
  if (!reset) begin
    if (wr_valid)
      assert({1'b0, wr_addr} + 65'd8 <= {1'b0, f_limit});
    assert(f_base[5:0] == 6'd0);
    assert(f_limit[11:0] == 12'd0);
    if (f_phase == PHASE_CHECK)
      assert(f_gone == (f_base[63:12] >= f_limit[63:12]));
    if (f_phase == PHASE_WRITING)
      assert(f_base < f_limit);
  end
end
