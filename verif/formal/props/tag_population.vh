// tag-population: an op is tagged only when it is in the thread's sample population (J1
// StatisticalProfilingEnabled, docs/spe-reference.md): the buffer enabled (PMBLIMITR.E)
// and not stopped (PMBSR.S), the group's EL allowed by the buffer's owner (EL2 when EL2 is
// enabled and MDCR_EL2.E2PB = 00, else EL1; nothing above the owner, nothing under
// HCR_EL2.TGE when EL1 owns it) and enabled by its PMSCR bit (EL0: E0SPE, or PMSCR_EL2.E0HSPE
// under TGE; EL1: E1SPE; EL2: PMSCR_EL2.E2SPE; never EL3). The registers are tapped from
// the thread's register block; the EL state is the thread's copy of the ports.
wire [63:0] f_limitr;
wire [31:0] f_bsr;
wire [7:0] f_scr1, f_scr2;
wire f_owner_el2 = th_el2_en && th_mdcr_e2pb == 2'b00;
wire f_tge = th_el2_en && th_hcr_tge;
wire [1:0] f_owner = f_owner_el2 ? 2'd2 : 2'd1;
wire f_owner_ok = th_disp_el <= f_owner && !(f_tge && !f_owner_el2);
wire f_el_on = th_disp_el == 2'd0 ? (f_tge ? f_scr2[PMSCR_E0SPE] : f_scr1[PMSCR_E0SPE])
             : th_disp_el == 2'd1 ? f_scr1[PMSCR_E1SPE]
             : th_disp_el == 2'd2 ? f_scr2[PMSCR_E1SPE]
             : 1'b0;
always @(*) begin
  if (!reset && th_tag != 0) begin
    assert(f_limitr[PMBLIMITR_E] && !f_bsr[PMBSR_S]);
    assert(f_owner_ok);
    assert(f_el_on);
  end
end
