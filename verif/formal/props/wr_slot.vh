// wr-slot: a record's beats are consecutive within one record slot (64 bytes, or 128 with
// FEAT_SPE_CRR: 2^REC_LOG2): the first beat at the slot's start, each next beat 8 bytes
// on, eight (sixteen) in all unless a fault ends the record (then reported in PMBSR) or
// software sets PMBSR.S (the record's thread's profiling stopped, f_stopped[f_tid]:
// PMBIRQ, or with FEAT_SPE_EXC any bank's pending exception; f_tid is the thread of its
// beats) between two beats (s-no-write). A unit with FEAT_SPEv1p3's PMBIDR.EA = 1
// (EA_IGNORED) ignores an external abort on a beat (kind 00, or the reserved 11 counted as
// one: choice external-abort): the record goes on. The property follows the record from
// the ports (beats taken so far, where the next must be); the taps (the tracker's phase,
// the writer's beat index and record base) give the invariants that relate that to the
// writer for the induction, each proven too. A 128-byte record's base moves on by 64 for
// its second half (bit 6 of the base: the half).
localparam [3:0] F_LAST = (4'd1 << (REC_LOG2 - 3)) - 4'd1;
localparam [63:0] F_SLOT = (64'd1 << REC_LOG2) - 64'd1;
wire [2:0] f_phase, f_sbeat;
wire [63:0] f_base;
reg [3:0] f_beats = 4'd0;
reg [63:0] f_next = 64'd0;
reg f_held = 1'b0;
reg [7:0] f_tid = 8'd0;
wire f_err_ends = wr_err && !(EA_IGNORED && wr_err_kind[0] == wr_err_kind[1]);
always @(posedge clk) begin
  f_held <= !reset && wr_valid && !wr_ready;
  if (wr_valid)
    f_tid <= wr_thread;
  if (reset) begin
    f_beats <= 4'd0;
  end else if (wr_valid && wr_ready) begin
    f_beats <= (f_err_ends || f_beats == F_LAST) ? 4'd0 : f_beats + 4'd1;
    f_next <= wr_addr + 64'd8;
  end else if (f_stopped[f_tid] && !f_held) begin
    f_beats <= 4'd0;
  end
end
always @(*) begin
  if (!reset) begin
    if (wr_valid) begin
      if (f_beats == 4'd0)
        assert((wr_addr & F_SLOT) == 64'd0);
      else
        assert(wr_addr == f_next);
    end
    // Invariants: the writer's beat index is the beats taken of the record's half in its
    // beats (PHASE_WRITING), zero in its room check (PHASE_CHECK), where the base is the
    // record's slot; in the beats the base's bit 6 is the half; no record, no beats.
    assert(f_base[5:0] == 6'd0);
    assert(f_beats <= F_LAST);
    if (f_phase == PHASE_CHECK) begin
      assert(f_sbeat == 3'd0);
      assert((f_base & F_SLOT) == 64'd0);
    end
    if (f_phase == PHASE_WRITING) begin
      assert(f_sbeat == f_beats[2:0]);
      assert((f_base & F_SLOT) == {57'd0, f_beats[3], 6'd0});
    end else
      assert(f_beats == 4'd0);
    if (f_phase == PHASE_WRITING && f_beats != 4'd0)
      assert(f_next == (f_base | {58'd0, f_beats[2:0], 3'd0}));
  end
end
