// off-quiet: once the thread's profiling is off (PMBLIMITR.E = 0 or PMBSR.S = 1) while no record is past
// its filter cycle (the tracker in neither its room check nor its beats), nothing is
// written as long as it stays off, and in the cycle after it is turned on again: a sample
// tracked or filtered while profiling is off is never written (J1 SPEWriteToBuffer asserts
// ProfilingBufferEnabled). Taps: PMBLIMITR, PMBSR and the tracker's phase.
wire [2:0] f_phase;
wire [63:0] f_limitr;
wire [31:0] f_bsr;
wire f_on = f_limitr[PMBLIMITR_E] && !f_bsr[PMBSR_S];
wire f_rec = f_phase == PHASE_CHECK || f_phase == PHASE_WRITING;
reg f_off = 1'b0;
always @(posedge clk)
  f_off <= !reset && !f_on && (f_off || !f_rec);
always @(*) begin
  if (!reset && f_off) begin
    assert(!th_wr);
    assert(!f_rec);
  end
end
