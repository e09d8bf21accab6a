// spe_vexriscv_hooks: the SPE unit's hook reports (W = 1, T = 1) from VexRiscv's pipeline.
//
// Hand-written; the demo SoC's core wrapper (soc/rtl/src/cpu.rs) instantiates it with the
// core's own pipeline signals, read from the unmodified VexRiscv module (hierarchical
// references under Verilator, Yosys `expose` for a bitstream). docs/integration.md, "A
// worked example: VexRiscv", has the mapping table and why each hook rule holds.
//
// VexRiscv (Lite): F, D, E, M, WB, one instruction per stage. An instruction is
// *dispatched* when it leaves D for E (decode_arbitration_isFiring): from then on it
// executes, and a branch resolved in M or a trap taken in WB may flush it (removeIt in E
// or M). Before that point it was only fetched and decoded; a fetch-stage redirect (the
// decode-stage prediction, a jump from M) throws such instructions away before they are
// counted, so they never enter the sampling population, as ops that were never dispatched.
//
// The sampled op (the unit's `tag` in its dispatch cycle) is followed stage by stage:
//   E   issue: the cycle it enters E. A load or store sends its bus command from E
//       (dBus_cmd_valid && dBus_cmd_ready; VexRiscv never sends it for an instruction
//       being flushed): translation is the identity, start and done in that cycle.
//   M   branch resolution: as it leaves M, taken (the condition result it had in E),
//       target (memory_BRANCH_CALC when taken, PC + 4 when not), mispredicted
//       (memory_BRANCH_DO: M redirected the fetch).
//   WB  retirement: as it leaves WB (writeBack_arbitration_isFiring).
// Removed in E or M (removeIt) it ends: flushed when the stage was flushed by an older
// instruction (isFlushed), an exception of its own otherwise (ECALL/EBREAK in E, a
// misaligned access or branch target in M).
// The data access: the first data-bus acknowledge after its command is the memory report
// (the bus takes one data command at a time: dBus_cmd_ready is low while one is
// outstanding). A store's acknowledge may come after the store left WB, and a flushed
// load's after its flush: the completion report waits for it, so that completion is the
// last report of the op, as the hook rules ask.
//
// VexRiscv Full (CACHED = 1) has a data cache: a load or store reads the cache from E
// (address execute_SRC_ADD), the identity translation answers in M and the access ends
// in WB. A hit or an uncached (I/O) load completes there and the op leaves WB; a store
// leaves once the cache's command buffer takes its write, before the bus acknowledges it,
// as from a store buffer (its memory report marks that hand-over); a miss (or a load of a
// word being written) refills and throws the op away to dispatch it again (the cache's
// redo: writeBack_arbitration_flushIt, so isFlushed); a misaligned access faults (removeIt
// without isFlushed). So with CACHED, translation is reported as the op leaves E, the
// memory report as it leaves WB, and a removal in WB ends it flushed (redo) or with an
// exception (fault). Lite's WB never removes an op (its removeIt is its isFlushed, 0).
//
// `fault` breaks the adapter on purpose, for the checks that must catch it:
//   0  correct;
//   1  a flushed op is reported as retired;
//   2  ops are dispatched at retirement (WB), not when they enter E;
//   3  issue reported in the dispatch cycle, with the tag (an off-by-one: the hook rules
//      take reports only from the cycle after the tag; the unit ignores it, hook_stray).
module spe_vexriscv_hooks #(
    parameter CACHED = 0         // 1: VexRiscv Full, data accesses through its data cache
) (
    input  wire        clk,
    input  wire        reset,
    input  wire [1:0]  fault,
    // The core's pipeline.
    input  wire        d_fire,       // decode_arbitration_isFiring
    input  wire [31:0] d_pc,         // decode_PC
    input  wire [31:0] d_insn,       // decode_INSTRUCTION
    input  wire        e_fire,       // execute_arbitration_isFiring
    input  wire        e_remove,     // execute_arbitration_removeIt
    input  wire        e_flushed,    // execute_arbitration_isFlushed
    input  wire        m_fire,       // memory_arbitration_isFiring
    input  wire        m_remove,     // memory_arbitration_removeIt
    input  wire        m_flushed,    // memory_arbitration_isFlushed
    input  wire [31:0] m_pc,         // memory_PC
    input  wire        wb_fire,      // writeBack_arbitration_isFiring
    input  wire        wb_remove,    // writeBack_arbitration_removeIt
    input  wire        wb_flushed,   // writeBack_arbitration_isFlushed (Full: the redo)
    input  wire [31:0] wb_pc,        // writeBack_PC
    input  wire [31:0] wb_insn,      // writeBack_INSTRUCTION
    input  wire        e_br_cond,    // execute_BRANCH_COND_RESULT
    input  wire [31:0] m_br_calc,    // memory_BRANCH_CALC
    input  wire        m_br_do,      // memory_BRANCH_DO
    input  wire        cmd_fire,     // Lite: dBus_cmd_valid && dBus_cmd_ready (Full: unused)
    input  wire [31:0] cmd_addr,     // Lite: dBus_cmd_payload_address; Full: execute_SRC_ADD
    input  wire        d_ack,        // Lite: the data bus's acknowledge (Full: unused)
    // The unit.
    input  wire        tag,          // the op dispatched this cycle is the sample
    input  wire [1:0]  disp_class,   // its class as the SoC decoded it from disp_insn
    // Hook reports (class and subclass are decoded from disp_insn by the SoC).
    output wire        disp,
    output wire [31:0] disp_pc,
    output wire [31:0] disp_insn,
    output wire        track,        // an op is being followed (the PSB waits for it)
    output wire        iss,
    output wire        xl,           // translation start and done
    output wire [31:0] xl_va,
    output wire        mem_done,
    output wire        br_done,
    output wire [31:0] br_target,
    output wire        br_taken,
    output wire        br_mispred,
    output wire        cpl_done,
    output wire        cpl_retired,
    output wire        cpl_exception
);
    localparam NONE = 2'd0, IN_E = 2'd1, IN_M = 2'd2, IN_WB = 2'd3;
    reg [1:0] st;         // where the sampled op is
    reg       ended;      // it left the pipeline; its completion waits for its access
    reg       end_ret, end_exc;
    reg       iss_due;    // its first cycle in E
    reg       late;       // fault 2: dispatched at retirement, completes next cycle
    reg       is_ldst, is_branch;
    reg       acc;        // its data access is outstanding
    reg       taken;

    wire at_retire = fault == 2'd2;

    assign disp = at_retire ? wb_fire : d_fire;
    assign disp_pc = at_retire ? wb_pc : d_pc;
    assign disp_insn = at_retire ? wb_insn : d_insn;

    // This cycle's events of the followed op.
    wire in_e = st == IN_E;
    wire in_m = st == IN_M;
    wire in_wb = st == IN_WB;
    wire e_end = in_e & e_remove;
    wire m_end = in_m & m_remove;
    wire wb_end = in_wb & (wb_fire | wb_remove);
    wire end_now = e_end | m_end | wb_end;
    wire now_ret = wb_end & wb_fire;
    wire now_exc = (e_end & !e_flushed) | (m_end & !m_flushed)
                 | (wb_end & !wb_fire & !wb_flushed);
    wire access = CACHED ? in_e & is_ldst & e_fire : in_e & is_ldst & cmd_fire & !acc;
    assign xl = access;
    assign xl_va = cmd_addr;
    assign mem_done = CACHED ? in_wb & is_ldst & wb_fire : acc & d_ack;
    wire acc_after = CACHED ? 1'b0 : (acc | access) & !(acc & d_ack);
    assign iss = fault == 2'd3 ? disp & tag : iss_due;
    assign br_done = in_m & is_branch & m_fire;
    assign br_taken = taken;
    assign br_target = taken ? m_br_calc : m_pc + 32'd4;
    assign br_mispred = m_br_do;
    // Completion: at the end, or when the access it waited for is acknowledged.
    wire fin_now = (end_now | ended) & !acc_after;
    assign cpl_done = late | fin_now;
    assign cpl_retired = late | (fault == 2'd1 ? 1'b1 : (ended ? end_ret : now_ret));
    assign cpl_exception = !late & (ended ? end_exc : now_exc);
    assign track = st != NONE | ended | late;

    always @(posedge clk) begin
        if (reset) begin
            st <= NONE;
            ended <= 1'b0;
            end_ret <= 1'b0;
            end_exc <= 1'b0;
            iss_due <= 1'b0;
            late <= 1'b0;
            is_ldst <= 1'b0;
            is_branch <= 1'b0;
            acc <= 1'b0;
            taken <= 1'b0;
        end else begin
            iss_due <= 1'b0;
            late <= 1'b0;
            acc <= acc_after;
            if (in_e & e_fire) begin
                st <= IN_M;
                taken <= e_br_cond;
            end
            if (in_m & m_fire) st <= IN_WB;
            if (end_now) begin
                st <= NONE;
                ended <= 1'b1;
                end_ret <= now_ret;
                end_exc <= now_exc;
            end
            if (fin_now) ended <= 1'b0;
            if (disp & tag) begin
                // The port table's classes: 1 load/store/atomic, 2 branch.
                is_ldst <= disp_class == 2'd1;
                is_branch <= disp_class == 2'd2;
                if (at_retire) begin
                    late <= 1'b1;
                    iss_due <= 1'b1;
                end else begin
                    st <= IN_E;
                    iss_due <= 1'b1;
                end
            end
        end
    end
endmodule
