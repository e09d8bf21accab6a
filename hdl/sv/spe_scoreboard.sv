// spe_scoreboard.sv: the record-level scoreboard of the SPE sampling unit for SystemVerilog
// benches, through DPI-C on the golden model's C library (tools/capi: libspe_capi.so or .a,
// tools/capi/include/spe_model.h).
//
// The rule (docs/integration.md, "The rule"): each cycle the scoreboard is given every
// port of the unit as the unit had it in that cycle (inputs and outputs, sampled before
// the clock edge); the golden model steps on the same inputs, follows the unit's tags and
// write timing, and compares each record beat the unit writes (address, data, strobes,
// thread) and every register read. A mismatch names the record (index in write order,
// thread, address), the beat and the byte, or the register.
//
// Use: in a monitor, once per clock cycle,
//   sb.set("disp_valid", 0, ...); ... sb.set("wr_valid", 0, dut.wr_valid); ...
//   if (sb.step()) `uvm_error("SPE", sb.message())   // or $error
// and at the end of the test, after reading every register through the port,
//   if (sb.finish()) $fatal(1, "%s", sb.message());
// A port is set one lane at a time: a per-slot port's lane is the slot, a per-thread
// port's the hardware thread, any other port has lane 0 (`tag` is one value, bit i for
// slot i). Values keep from cycle to cycle until set again.
//
// Build (Verilator 5): add this file before the bench and link the library, for example
//   $ verilator --binary ... hdl/sv/spe_scoreboard.sv bench.sv \
//       target/release/libspe_capi.a -LDFLAGS "-lpthread -ldl -lm"
// (scripts/sv-example.sh builds the example bench, gen/<preset>/spe_<preset>_replay.sv
// with +define+SPE_SCOREBOARD.)

package spe_scoreboard_pkg;

  import "DPI-C" function chandle spe_scoreboard_new(input string preset);
  import "DPI-C" function void spe_scoreboard_free(input chandle s);
  import "DPI-C" function int spe_scoreboard_set(input chandle s, input string port,
                                                 input int unsigned lane,
                                                 input longint unsigned value);
  import "DPI-C" function int spe_scoreboard_step(input chandle s);
  import "DPI-C" function int spe_scoreboard_finish(input chandle s);
  import "DPI-C" function string spe_scoreboard_message(input chandle s);
  import "DPI-C" function string spe_scoreboard_summary(input chandle s);
  import "DPI-C" function longint unsigned spe_scoreboard_record_count(input chandle s);

  // One scoreboard: the golden model of a preset following one instance of the unit.
  class spe_scoreboard;
    local chandle h;
    string preset;

    function new(string name);
      preset = name;
      h = spe_scoreboard_new(name);
      if (h == null) $fatal(1, "spe_scoreboard: unknown preset \"%s\"", name);
    endfunction

    // Lane `lane` of port `port` (input or output of the unit) for this cycle.
    function void set(string port, int unsigned lane, longint unsigned value);
      if (spe_scoreboard_set(h, port, lane, value) != 0)
        $fatal(1, "spe_scoreboard: preset %s has no port %s lane %0d", preset, port, lane);
    endfunction

    // Ends the cycle: the model steps and compares. 1 when this cycle found a mismatch.
    function int step();
      return spe_scoreboard_step(h);
    endfunction

    // The end of the run: 1 when the run failed (a mismatch, or records the unit wrote
    // that the model does not); message() then says the first.
    function int finish();
      return spe_scoreboard_finish(h);
    endfunction

    // The first mismatch of the run ("cycle N: record K ..."), or "".
    function string message();
      return spe_scoreboard_message(h);
    endfunction

    // What was checked: cycles, records, beats, register reads, tags, mismatches.
    function string summary();
      return spe_scoreboard_summary(h);
    endfunction

    // Records the model has written so far (whole or up to a fault).
    function longint unsigned record_count();
      return spe_scoreboard_record_count(h);
    endfunction

    function void free();
      spe_scoreboard_free(h);
      h = null;
    endfunction
  endclass

endpackage
