// tag-allowed: no op is tagged while the core prohibits profiling (prof_allowed low) or
// the group is in AArch32 state: such ops are not in the sample population.
always @(*) begin
  if (!reset && (!prof_allowed || disp_aarch32))
    assert(tag == 0);
end
