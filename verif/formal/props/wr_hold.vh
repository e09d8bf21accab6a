// wr-hold: a beat offered and not taken stays offered, unchanged, in the next cycle
// (unless reset): the write port never withdraws or changes a beat.
reg f_pending = 1'b0;
reg [63:0] f_addr = 64'd0, f_data = 64'd0;
always @(posedge clk) begin
  f_pending <= !reset && wr_valid && !wr_ready;
  f_addr <= wr_addr;
  f_data <= wr_data;
end
always @(*) begin
  if (f_pending && !reset) begin
    assert(wr_valid);
    assert(wr_addr == f_addr);
    assert(wr_data == f_data);
  end
end
