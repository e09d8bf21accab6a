// one-in-flight: at most one operation in flight: an op is tagged only while no sample
// is in flight (the tracker idle), so a second selection is a collision, never a tag.
// f_phase is the thread's tracker's phase (PHASE_IDLE: no sample), tapped by spe formal.
wire [2:0] f_phase;
always @(*) begin
  if (!reset && th_tag != 0)
    assert(f_phase == PHASE_IDLE);
end
