// A minimal bench around spe_top_minimal, written by hand from docs/integration.md
// ("Bring-up") and gen/spe_tables.md alone: no generated bench, no scoreboard, no model.
// It is what an integrator's first bench looks like:
//   1. reset, then Linux's start sequence on the register port (arm_spe_pmu_start:
//      PMBIDR.P checked, PMBPTR, PMBLIMITR with E, the filters off, PMSIRR = the period, PMSICR = 0,
//      PMSCR_EL1 last);
//   2. a stream of EL0 micro-ops, one per cycle (every fourth a load, every seventh a
//      branch), with the hook reports of each tagged op a few cycles after its tag;
//   3. a memory that takes every beat (ready 3 cycles in 4) into an array;
//   4. Linux's stop sequence (PMSCR_EL1 = 0, PSB handshake, PMBLIMITR = 0, read PMBPTR
//      and PMBSR), then checks: one record per tag, PMBPTR = base + 64 x tags, no
//      interrupt, no stray hook; and writes the buffer [base, PMBPTR) as raw bytes to
//      +buffer=FILE for `spe decode FILE --expect-records N`.
// It runs unchanged under Icarus Verilog (iverilog -g2005) and Verilator 5 (--binary);
// examples/bringup/run.sh builds it both ways from a folder outside the repository.
`timescale 1ns / 1ps

module spe_bringup_tb;
    // Register port addresses ({op1 == 4, CRm[0], op2}; gen/spe_tables.md, "Register map").
    localparam [4:0] PMBLIMITR = 5'h00, PMBPTR = 5'h01, PMBSR = 5'h03, PMBIDR = 5'h07,
                     PMSCR_EL1 = 5'h08,
                     PMSICR = 5'h0a, PMSIRR = 5'h0b, PMSFCR = 5'h0c, PMSEVFR = 5'h0d,
                     PMSLATFR = 5'h0e, PMSIDR = 5'h0f;
    localparam [63:0] BASE = 64'hffff_8000_1000_0000; // the buffer: 16 KiB, 256 records
    localparam [63:0] LIMIT = BASE + 64'h4000;
    localparam integer WORDS = 2048;                   // 16 KiB in 8-byte beats
    localparam [63:0] PERIOD = 64'd1024;               // PMSIRR holds the period itself
    localparam integer OPS = 24000;                    // cycles of the op stream

    reg clk = 1'b0;
    always #5 clk = ~clk;
    reg reset = 1'b1;

    // Dispatch (W = 1, T = 1).
    reg         disp_valid = 1'b0;
    reg  [55:0] disp_pc = 56'h0;
    reg  [1:0]  disp_class = 2'd0;
    // Hook reports of the tagged op.
    reg iss_valid = 1'b0, xl_start = 1'b0, xl_done = 1'b0, mem_done = 1'b0;
    reg br_done = 1'b0, cpl_done = 1'b0;
    reg [63:0] xl_va = 64'h0;
    reg [55:0] xl_pa = 56'h0, br_target = 56'h0;
    // Register port.
    reg        reg_en = 1'b0, reg_we = 1'b0;
    reg [4:0]  reg_addr = 5'h0;
    reg [63:0] reg_wdata = 64'h0;
    wire [63:0] reg_rdata;
    // PSB handshake.
    reg  psb_req = 1'b0;
    wire psb_done;
    // Memory port.
    reg  wr_ready = 1'b0;
    wire wr_valid;
    wire [63:0] wr_addr, wr_data;
    wire [7:0] wr_strb;
    // Status.
    wire tag, irq, hook_stray, sample_timeout;
    wire [3:0] pmu_sample_pop;
    wire pmu_sample_feed, pmu_sample_filtrate, pmu_sample_collision;
    // The generic timer.
    reg [63:0] count = 64'h1000;

    spe_top_minimal dut (
        .clk(clk), .reset(reset),
        .disp_valid(disp_valid), .disp_pc(disp_pc), .disp_class(disp_class),
        .disp_subclass(8'h00), .disp_cond(1'b0), .disp_el(2'd0), .disp_ns(1'b1),
        .el2_en(1'b0), .mdcr_e2pb(2'd0), .hcr_tge(1'b0), .hcr_e2h(1'b0),
        .disp_aarch32(1'b0), .prof_allowed(1'b1), .tag(tag),
        .iss_valid(iss_valid), .xl_start(xl_start), .xl_va(xl_va), .xl_done(xl_done),
        .xl_pa(xl_pa), .xl_pa_ns(1'b1), .xl_tlb_access(1'b1), .xl_tlb_walk(1'b0),
        .mem_done(mem_done), .mem_source(8'h00), .mem_l1d_access(1'b1),
        .mem_l1d_refill(1'b0), .mem_llc_access(1'b0), .mem_llc_miss(1'b0),
        .mem_remote(1'b0), .mem_misaligned(1'b0),
        .br_done(br_done), .br_target(br_target), .br_target_el(2'd0), .br_target_ns(1'b1),
        .br_taken(1'b1), .br_mispred(1'b0), .br_indirect(1'b0),
        .cpl_done(cpl_done), .cpl_retired(1'b1), .cpl_exception(1'b0), .cpl_cond_fail(1'b0),
        .hook_stray(hook_stray), .sample_timeout(sample_timeout),
        .ctx_el1(32'd1234), .ctx_el2(32'd0), .cnt_virt(count), .cnt_phys(count),
        .reg_en(reg_en), .reg_we(reg_we), .reg_addr(reg_addr), .reg_wdata(reg_wdata),
        .reg_rdata(reg_rdata),
        .wr_valid(wr_valid), .wr_addr(wr_addr), .wr_data(wr_data), .wr_strb(wr_strb),
        .wr_ready(wr_ready), .wr_err(1'b0), .wr_err_kind(2'd0), .wr_err_fsc(6'd0),
        .irq(irq), .pmu_sample_pop(pmu_sample_pop), .pmu_sample_feed(pmu_sample_feed),
        .pmu_sample_filtrate(pmu_sample_filtrate), .pmu_sample_collision(pmu_sample_collision),
        .psb_req(psb_req), .psb_done(psb_done)
    );

    // ---- The memory: every accepted beat lands in `mem`. ----
    reg [63:0] mem [0:WORDS-1];
    integer beats = 0, errors = 0;
    reg [1:0] ready_phase = 2'd0;
    wire [63:0] offset = wr_addr - BASE;
    always @(posedge clk) begin
        ready_phase <= ready_phase + 2'd1;
        if (wr_valid && wr_ready) begin
            if (wr_addr < BASE || wr_addr >= LIMIT || wr_strb != 8'hff) begin
                $display("ERROR: beat at %h (strobes %h) outside the buffer", wr_addr, wr_strb);
                errors = errors + 1;
            end else
                mem[offset[13:3]] <= wr_data;
            beats = beats + 1;
        end
    end
    // Ready 3 cycles in 4: the unit must hold its beat while wr_ready is low.
    always @(negedge clk) wr_ready <= (ready_phase != 2'd3);
    // Every input changes at the falling edge, the counter too: nothing races the unit's
    // rising edge, so every simulator gives the same bytes.
    // (A falling edge at time 0, clk going from x to 0, is seen by some simulators and not
    // by others: nothing here counts it.)
    always @(negedge clk) if (!reset) count <= count + 64'd1;

    // ---- Register port: drive at the falling edge, the unit takes it at the rising one.
    // reg_rdata is combinational: it shows the register while reg_en and reg_addr do.
    task reg_write(input [4:0] addr, input [63:0] data);
        begin
            @(negedge clk);
            reg_en = 1'b1; reg_we = 1'b1; reg_addr = addr; reg_wdata = data;
            @(negedge clk);
            reg_en = 1'b0; reg_we = 1'b0;
        end
    endtask
    task reg_read(input [4:0] addr, output [63:0] data);
        begin
            @(negedge clk);
            reg_en = 1'b1; reg_we = 1'b0; reg_addr = addr;
            @(posedge clk);
            data = reg_rdata;
            @(negedge clk);
            reg_en = 1'b0;
        end
    endtask

    // ---- The op stream and the tagged op's reports. ----
    // `tag` is combinational: it names the op dispatched in this cycle. Read it at the
    // rising edge, before the unit's state moves; the reports come from the next cycle on.
    reg streaming = 1'b0;
    integer n = 0, tags = 0, since = -1;
    reg [1:0] tagged_class = 2'd0;
    reg [55:0] tagged_pc = 56'h0;
    always @(posedge clk) begin
        if (streaming && disp_valid && tag) begin
            tags = tags + 1;
            since = 0;
            tagged_class = disp_class;
            tagged_pc = disp_pc;
        end else if (since >= 0)
            since = since + 1;
    end
    always @(negedge clk) begin
        // Dispatch: one op per cycle while streaming.
        disp_valid = streaming;
        if (streaming) begin
            n = n + 1;
            disp_pc = 56'h40_0000 + {38'h0, n[15:0], 2'b00};
            disp_class = (n % 4 == 0) ? 2'd1 : (n % 7 == 0) ? 2'd2 : 2'd0;
        end
        // Reports, relative to the tag cycle (since = 1 is the cycle after it).
        iss_valid = (since == 1);
        xl_start = (since == 2) && (tagged_class == 2'd1);
        xl_done = (since == 3) && (tagged_class == 2'd1);
        xl_va = 64'h0000_7fff_0000_0000 | {8'h0, tagged_pc};
        xl_pa = 56'h8000_0000 | tagged_pc;
        mem_done = (since == 5) && (tagged_class == 2'd1);
        br_done = (since == 3) && (tagged_class == 2'd2);
        br_target = tagged_pc + 56'h100;
        cpl_done = (since == 6);
        if (since == 6) since = -1;
    end

    reg [63:0] v, ptr, sr, idr, k;
    integer fd, b;
    reg [8*256-1:0] path;
    initial begin
        repeat (4) @(posedge clk);
        @(negedge clk);
        reset = 1'b0;
        reg_read(PMSIDR, idr);
        $display("PMSIDR_EL1 = %h", idr);
        reg_read(PMBIDR, idr);
        if (idr[4]) begin
            $display("ERROR: PMBIDR_EL1.P = 1: the buffer is owned by a higher EL");
            errors = errors + 1;
        end
        // Start (arm_spe_pmu_start): the buffer first, PMSCR last.
        reg_write(PMBPTR, BASE);
        reg_write(PMBLIMITR, LIMIT | 64'h1);        // LIMIT, FM = 00 (fill), E = 1
        reg_write(PMSFCR, 64'h0);
        reg_write(PMSEVFR, 64'h0);
        reg_write(PMSLATFR, 64'h0);
        reg_write(PMSIRR, PERIOD);                   // RND = 0: no jitter
        reg_write(PMSICR, 64'h0);
        reg_write(PMSCR_EL1, 64'h21);                // E0SPE, TS (timestamps)
        // `streaming` changes at a rising edge: the falling-edge process that dispatches
        // reads it without a race.
        @(posedge clk);
        streaming = 1'b1;
        repeat (OPS) @(posedge clk);
        streaming = 1'b0;
        // Stop (arm_spe_pmu_disable_and_drain_local): sampling off, PSB, buffer off.
        reg_write(PMSCR_EL1, 64'h0);
        @(negedge clk);
        psb_req = 1'b1;
        @(posedge clk);
        while (!psb_done) @(posedge clk);
        @(negedge clk);
        psb_req = 1'b0;
        reg_write(PMBLIMITR, 64'h0);
        reg_read(PMBPTR, ptr);
        reg_read(PMBSR, sr);
        $display("tags %0d, beats %0d, PMBPTR = %h (%0d bytes), PMBSR = %h", tags, beats, ptr,
                 ptr - BASE, sr);
        if (ptr - BASE != 64 * tags) begin
            $display("ERROR: PMBPTR is %0d bytes past the base; %0d records of 64 bytes expected",
                     ptr - BASE, tags);
            errors = errors + 1;
        end
        if (sr != 64'h0 || irq) begin
            $display("ERROR: PMBSR %h, irq %b: no management event expected", sr, irq);
            errors = errors + 1;
        end
        if (tags < 10) begin
            $display("ERROR: only %0d tags in %0d ops at period %0d", tags, OPS, PERIOD);
            errors = errors + 1;
        end
        if ($value$plusargs("buffer=%s", path)) begin
            fd = $fopen(path, "wb");
            for (k = 0; k < (ptr - BASE) / 8; k = k + 1) begin
                v = mem[k[10:0]];
                for (b = 0; b < 8; b = b + 1) $fwrite(fd, "%c", v[8*b +: 8]);
            end
            $fclose(fd);
        end
        if (errors != 0) begin
            $display("FAIL: %0d errors", errors);
            $fatal(1, "spe_bringup_tb failed");
        end
        $display("PASS: %0d records", tags);
        $finish;
    end

    // Checks that run every cycle.
    always @(posedge clk) begin
        if (!reset && (hook_stray || sample_timeout)) begin
            $display("ERROR: cycle of hook_stray %b / sample_timeout %b at %0t", hook_stray,
                     sample_timeout, $time);
            errors = errors + 1;
        end
    end
endmodule
