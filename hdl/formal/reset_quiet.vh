// reset-quiet: while reset is high every output except reg_rdata and irq is low.
always @(*) begin
  if (reset) begin
    assert(tag == 0);
    assert(!hook_stray && !sample_timeout);
    assert(!wr_valid && wr_addr == 0 && wr_data == 0 && wr_strb == 0);
    assert(pmu_sample_pop == 0 && !pmu_sample_feed && !pmu_sample_filtrate);
    assert(!pmu_sample_collision && !psb_done);
  end
end
