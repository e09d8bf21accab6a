// tag-onehot: the tag vector is one-hot or zero, and only a valid slot is tagged.
// (A fragment of the generated formal wrapper: the unit's ports by name, W slots.)
always @(*) begin
  if (!reset) begin
    assert((tag & (tag - 1'b1)) == 0);
    assert((tag & ~disp_valid) == 0);
  end
end
