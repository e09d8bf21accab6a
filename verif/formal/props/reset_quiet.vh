// reset-quiet: while reset is high every output except reg_rdata and irq is low (every
// thread's copy; the outputs of the options the preset builds, f_option_outs, too).
always @(*) begin
  if (reset) begin
    assert(tag == 0);
    assert(hook_stray == 0 && sample_timeout == 0);
    assert(!wr_valid && wr_addr == 0 && wr_data == 0 && wr_strb == 0);
    assert(pmu_sample_pop == 0 && pmu_sample_feed == 0 && pmu_sample_filtrate == 0);
    assert(pmu_sample_collision == 0 && psb_done == 0);
    assert(!f_option_outs);
  end
end
