// wr-aligned: every beat offered is a whole aligned 64-bit word: all byte enables set,
// the address 8-byte aligned.
always @(*) begin
  if (!reset && wr_valid) begin
    assert(wr_strb == 8'hff);
    assert(wr_addr[2:0] == 3'b000);
  end
end
