// wr-slot: a record's beats are consecutive within one 64-byte slot: the first beat at
// the slot's start, each next beat 8 bytes on, eight in all unless a fault ends the
// record. The property follows the record from the port (beats taken so far), so it is
// checked to a bounded depth until the writer exports its beat index for an induction.
reg [2:0] f_beats = 3'd0;
reg [63:0] f_next = 64'd0;
always @(posedge clk) begin
  if (reset) begin
    f_beats <= 3'd0;
  end else if (wr_valid && wr_ready) begin
    f_beats <= wr_err ? 3'd0 : f_beats + 3'd1;
    f_next <= wr_addr + 64'd8;
  end
end
always @(*) begin
  if (!reset && wr_valid) begin
    if (f_beats == 3'd0)
      assert(wr_addr[5:0] == 6'b000000);
    else
      assert(wr_addr == f_next);
  end
end
