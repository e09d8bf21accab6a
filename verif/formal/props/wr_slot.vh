// wr-slot: a record's beats are consecutive within one 64-byte slot: the first beat at
// the slot's start, each next beat 8 bytes on, eight in all unless a fault ends the
// record (then reported in PMBSR) or software sets PMBSR.S (the record's thread's
// profiling stopped, f_stopped[f_tid]: PMBIRQ, or with FEAT_SPE_EXC any bank's pending
// exception; f_tid is the thread of its beats) between two beats (s-no-write). A unit with
// FEAT_SPEv1p3's PMBIDR.EA = 1 (EA_IGNORED) ignores an external abort on a beat (kind 00,
// or the reserved 11 counted as one: choice external-abort): the record goes on. The property follows the record from the ports (beats taken so far, where
// the next must be); the taps (the tracker's phase, the writer's beat index and record
// base) give the invariants that relate that to the writer for the induction, each proven
// too.
wire [2:0] f_phase, f_sbeat;
wire [63:0] f_base;
reg [2:0] f_beats = 3'd0;
reg [63:0] f_next = 64'd0;
reg f_held = 1'b0;
reg [7:0] f_tid = 8'd0;
wire f_err_ends = wr_err && !(EA_IGNORED && wr_err_kind[0] == wr_err_kind[1]);
always @(posedge clk) begin
  f_held <= !reset && wr_valid && !wr_ready;
  if (wr_valid)
    f_tid <= wr_thread;
  if (reset) begin
    f_beats <= 3'd0;
  end else if (wr_valid && wr_ready) begin
    f_beats <= f_err_ends ? 3'd0 : f_beats + 3'd1;
    f_next <= wr_addr + 64'd8;
  end else if (f_stopped[f_tid] && !f_held) begin
    f_beats <= 3'd0;
  end
end
always @(*) begin
  if (!reset) begin
    if (wr_valid) begin
      if (f_beats == 3'd0)
        assert(wr_addr[5:0] == 6'b000000);
      else
        assert(wr_addr == f_next);
    end
    // Invariants: the writer's beat index is the beats taken of the record in its
    // beats (PHASE_WRITING), zero in its room check (PHASE_CHECK); no record, no beats.
    assert(f_base[5:0] == 6'd0);
    if (f_phase == PHASE_CHECK)
      assert(f_sbeat == 3'd0);
    if (f_phase == PHASE_WRITING)
      assert(f_sbeat == f_beats);
    else
      assert(f_beats == 3'd0);
    if (f_phase == PHASE_WRITING && f_beats != 3'd0)
      assert(f_next == (f_base | {58'd0, f_beats, 3'd0}));
  end
end
