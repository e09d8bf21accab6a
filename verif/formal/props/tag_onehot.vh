// tag-onehot: the thread's tags (th_tag: the whole tag vector at T = 1) are one-hot or
// zero, one op sampled per thread and cycle, and only a valid slot is tagged.
// (A fragment of the generated formal wrapper: the unit's ports by name, W slots, and the
// view of thread TH: th_<port>, th_tag, th_wr, th_reg.)
always @(*) begin
  if (!reset) begin
    assert((th_tag & (th_tag - 1'b1)) == 0);
    assert((tag & ~disp_valid) == 0);
  end
end
