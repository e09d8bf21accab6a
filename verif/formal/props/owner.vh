// owner: the shared writer's owner, in a multithreaded unit (T > 1) only. The wrapper
// includes this file beside every property, so each run on smt2 or smt4 proves these
// invariants too, and a property's induction may rest on them. They say whose record
// the writer holds: the arbiter's current thread (`cur`, the thread granted last) is
// one-hot; a thread's tracker is in its room check or its beats only if that thread is
// `cur` (so at most one thread is); the arbiter's own copy of the held record's phase,
// which the writer reads (`s_chk`: its check, `s_wr`: its beats), is `cur`'s tracker
// phase; a beat offered is named (wr_tid) for `cur`. The arbiter grants only while the
// writer is free, which is what keeps them true (mutant grant-busy breaks it).
// Taps: the arbiter's `cur`, `s_chk` and `s_wr` flops and every thread's tracker phase,
// thread t's at f_own_phase[t*3 +: 3].
wire [T-1:0] f_own_cur;
wire f_own_chk;
wire f_own_wr;
wire [3*T-1:0] f_own_phase;
always @(*) begin
  if (!reset) begin
    assert(f_own_cur != 0 && (f_own_cur & (f_own_cur - 1)) == 0);
    if (wr_valid)
      assert(f_own_cur[wr_tid]);
  end
end
genvar f_j;
generate for (f_j = 0; f_j < T; f_j = f_j + 1) begin : f_own
  always @(*)
    if (!reset && (f_own_phase[f_j*3 +: 3] == PHASE_CHECK
                   || f_own_phase[f_j*3 +: 3] == PHASE_WRITING))
      assert(f_own_cur[f_j]);
  always @(*)
    if (!reset && f_own_cur[f_j]) begin
      assert(f_own_chk == (f_own_phase[f_j*3 +: 3] == PHASE_CHECK));
      assert(f_own_wr == (f_own_phase[f_j*3 +: 3] == PHASE_WRITING));
    end
end endgenerate
