// tag-allowed: no op is tagged while the core prohibits profiling (prof_allowed low) or
// the group is in AArch32 state: such ops are not in the sample population (the thread's
// own prof_allowed and disp_aarch32, its tags).
always @(*) begin
  if (!reset && (!th_prof_allowed || th_disp_aarch32))
    assert(th_tag == 0);
end
