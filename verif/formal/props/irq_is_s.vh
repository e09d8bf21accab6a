// irq-is-s: PMBIRQ is PMBSR_EL1.S: a read of the thread's PMBSR_EL1 through the register
// port returns S (bit 17) equal to the thread's irq in the same cycle (with FEAT_SPE_EXC,
// to its irq or EL1 exception: `th_s_el1`; J1 SPEInterruptEnabled, CheckForSPEException).
always @(*) begin
  if (!reset && reg_en && !reg_we && th_reg && reg_addr == REG_PMBSR)
    assert(reg_rdata[PMBSR_S] == th_s_el1);
end
