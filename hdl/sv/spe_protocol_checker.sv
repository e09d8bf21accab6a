// spe_protocol_checker: the port contract of the SPE sampling unit (gen/spe_tables.md, "Hook
// protocol" and the port table) as assertions, for any bench that drives spe_top_<preset>.
// Hand-written; a one-thread unit (T = 1). Bind it to the unit (its ports are named as the
// unit's, so `.*` connects them):
//
//   bind spe_top_default spe_protocol_checker #(.W(4)) u_spe_protocol (.*);
//
// Every rule has a key; a violation prints "SPE protocol: rule <key>: <what>" at the cycle.
// The core's rules (what a correct core never does; the unit tolerates each one and pulses
// hook_stray or sample_timeout, but the profile is wrong):
//   window             a hook report only from the cycle after the tag up to cpl_done
//   once               iss_valid, xl_start, xl_done, mem_done, br_done once per sampled op
//   class              xl_* and mem_done for a load/store (class 1), br_done for a branch (2)
//   translation-order  xl_done with or after xl_start
//   lost-completion    cpl_done for every sampled op before the unit's timeout
//   psb-hold           psb_req held high until psb_done
//   reg-port           reg_we only with reg_en
//   wr-response        wr_err only answers an accepted beat (wr_valid and wr_ready)
// The unit's rules (what the unit promises the core):
//   tag                at most one slot tagged, a valid one, never with a sample in flight
//   wr-hold            an offered beat (wr_valid, not wr_ready) stays offered, unchanged
//   wr-beat            a beat is 8 bytes: wr_strb all ones, wr_addr 8-byte aligned
//   reset-quiet        no tag and no beat while reset is high
//
// Assertions are immediate (`assert ... else`), so Verilator (--assert), Icarus-free SV
// simulators and formal tools all take them. STOP_ON_ERROR = 1 makes a violation an $error
// (most simulators stop); 0 prints it and counts it in `violations` (a bench reads the count
// at the end, as spe_replay_tb does).

module spe_protocol_checker #(
    parameter int W = 4,  // dispatch width of the preset
    parameter bit STOP_ON_ERROR = 1
) (
    input logic clk,
    input logic reset,
    input logic [W-1:0] disp_valid,
    input logic [2*W-1:0] disp_class,
    input logic [W-1:0] tag,
    input logic iss_valid,
    input logic xl_start,
    input logic xl_done,
    input logic mem_done,
    input logic br_done,
    input logic cpl_done,
    input logic sample_timeout,
    input logic psb_req,
    input logic psb_done,
    input logic reg_en,
    input logic reg_we,
    input logic wr_valid,
    input logic wr_ready,
    input logic wr_err,
    input logic [63:0] wr_addr,
    input logic [63:0] wr_data,
    input logic [7:0] wr_strb
);
  localparam logic [1:0] CLASS_LDST = 2'd1;
  localparam logic [1:0] CLASS_BRANCH = 2'd2;

  int unsigned violations = 0;
  longint unsigned cycle = 0;

  // The sampled op: in flight from the cycle after its tag through its cpl_done (or the
  // cycle a PSB or the timeout drops it); its class and which reports it has had.
  logic in_flight = 1'b0;
  logic [1:0] op_class = 2'd0;
  logic seen_iss = 1'b0, seen_xs = 1'b0, seen_xd = 1'b0, seen_mem = 1'b0, seen_br = 1'b0;
  // Last cycle's values, for the hold rules.
  logic was_reset = 1'b1, was_psb_req = 1'b0, was_psb_done = 1'b0;
  logic was_offered = 1'b0;
  logic [63:0] was_addr = 64'd0, was_data = 64'd0;
  logic [7:0] was_strb = 8'd0;

  logic any_report;
  assign any_report = iss_valid | xl_start | xl_done | mem_done | br_done | cpl_done;

  logic [1:0] tagged_class;
  always_comb begin
    tagged_class = 2'd0;
    for (int i = 0; i < W; i++) if (tag[i]) tagged_class = disp_class[2*i+:2];
  end

  task automatic violation(input string key, input string what);
    violations <= violations + 1;
    if (STOP_ON_ERROR) $error("SPE protocol: rule %s: %s (cycle %0d)", key, what, cycle);
    else $display("SPE protocol: rule %s: %s (cycle %0d)", key, what, cycle);
  endtask

  always_ff @(posedge clk) begin
    cycle <= cycle + 1;
    if (reset) begin
      assert (tag == '0 && !wr_valid)
      else violation("reset-quiet", "a tag or a beat while reset is high");
    end else begin
      // The core's rules.
      assert (in_flight || !any_report)
      else violation("window", "a hook report with no sampled op in flight (or in its tag cycle)");
      assert (!in_flight || !((iss_valid && seen_iss) || (xl_start && seen_xs)
                              || (xl_done && seen_xd) || (mem_done && seen_mem)
                              || (br_done && seen_br)))
      else violation("once", "a second report of the same hook for one sampled op");
      assert (!in_flight
              || !(((xl_start || xl_done || mem_done) && op_class != CLASS_LDST)
                   || (br_done && op_class != CLASS_BRANCH)))
      else violation("class", "a translation or memory report for a non-load/store, or a branch report for a non-branch");
      assert (!in_flight || !xl_done || xl_start || seen_xs)
      else violation("translation-order", "xl_done before xl_start");
      assert (!sample_timeout)
      else violation("lost-completion", "the unit dropped a sampled op whose cpl_done never came");
      assert (was_reset || !was_psb_req || was_psb_done || psb_req)
      else violation("psb-hold", "psb_req dropped before psb_done");
      assert (reg_en || !reg_we)
      else violation("reg-port", "reg_we without reg_en");
      assert (!wr_err || (wr_valid && wr_ready))
      else violation("wr-response", "wr_err without an accepted beat");
      // The unit's rules.
      assert ($countones(tag) <= 1 && (tag & ~disp_valid) == '0 && (tag == '0 || !in_flight))
      else violation("tag", "more than one slot, an empty slot, or a tag with a sample in flight");
      assert (was_reset || !was_offered
              || (wr_valid && wr_addr == was_addr && wr_data == was_data && wr_strb == was_strb))
      else violation("wr-hold", "an offered beat was withdrawn or changed before wr_ready");
      assert (!wr_valid || (wr_strb == 8'hff && wr_addr[2:0] == 3'd0))
      else violation("wr-beat", "a beat that is not 8 aligned bytes");
    end

    // The sampled op's window.
    if (reset) begin
      in_flight <= 1'b0;
    end else begin
      if (in_flight) begin
        seen_iss <= seen_iss | iss_valid;
        seen_xs <= seen_xs | xl_start;
        seen_xd <= seen_xd | xl_done;
        seen_mem <= seen_mem | mem_done;
        seen_br <= seen_br | br_done;
        if (cpl_done || psb_req || sample_timeout) in_flight <= 1'b0;
      end
      if (tag != '0) begin
        in_flight <= 1'b1;
        op_class <= tagged_class;
        {seen_iss, seen_xs, seen_xd, seen_mem, seen_br} <= 5'b0;
      end
    end
    was_reset <= reset;
    was_psb_req <= psb_req;
    was_psb_done <= psb_done;
    was_offered <= wr_valid && !wr_ready && !reset;
    was_addr <= wr_addr;
    was_data <= wr_data;
    was_strb <= wr_strb;
  end
endmodule
