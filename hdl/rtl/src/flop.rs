//! `spe_rff`: the one flip-flop of the design, a D register with a **synchronous,
//! active-high reset** to a per-instance reset value.
//!
//! ```text
//!   d[W], reset, clock --> spe_rff #(W, INIT) --> q[W]     q <= reset ? INIT : d at posedge clock
//! ```
//!
//! rust-hdl's stock `DFF` has no reset port, only an `initial` block (which ASIC flows
//! ignore): every flop of the unit is this block instead, so all state has a real reset.
//!
//! In Verilog all instances share one parameterised module, `spe_rff` (see [`RFF_VERILOG`],
//! written once to `gen/spe_rff.v`): the instance is emitted as a black box whose module
//! name carries the parameters, `spe_rff #(.W(12), .INIT(12'h000)) count(...)`.
//!
//! rust-hdl's simulator does the same; the reset value is fixed by [`Rff::with_reset`].

use rust_hdl::prelude::*;

/// A register with synchronous reset to `init`.
#[derive(Clone, Debug, LogicBlock)]
pub struct Rff<T: Synth> {
    /// Next value (taken at the edge unless `reset`), current value, synchronous reset.
    pub d: Signal<In, T>,
    pub q: Signal<Out, T>,
    pub reset: Signal<In, Bit>,
    pub clock: Signal<In, Clock>,
    init: Constant<T>,
}

impl<T: Synth> Rff<T> {
    /// A register that resets to `init`.
    pub fn with_reset(init: T) -> Self {
        Rff {
            d: Signal::default(),
            q: Signal::new_with_default(init),
            reset: Signal::default(),
            clock: Signal::default(),
            init: Constant::new(init),
        }
    }
}

impl<T: Synth> Default for Rff<T> {
    /// A register that resets to zero.
    fn default() -> Self {
        Self::with_reset(T::default())
    }
}

impl<T: Synth> Logic for Rff<T> {
    fn update(&mut self) {
        if self.clock.pos_edge() {
            self.q.next = if self.reset.val() {
                self.init.val()
            } else {
                self.d.val()
            };
        }
    }
    fn connect(&mut self) {
        self.q.connect();
    }
    fn hdl(&self) -> Verilog {
        // The instance names the shared module with its parameters; INIT is sized to W (a
        // state enum's literal comes 64 bits wide from rust-hdl).
        let lit = self.init.val().verilog();
        let init = if lit.to_string().starts_with(&format!("{}'", T::BITS)) {
            lit.to_string()
        } else {
            format!("{}'d{}", T::BITS, lit.as_usize())
        };
        Verilog::Blackbox(BlackBox {
            code: String::new(),
            name: format!("{} #(.W({}), .INIT({}))", RFF_MODULE, T::BITS, init),
        })
    }
    fn timing(&self) -> Vec<TimingInfo> {
        vec![TimingInfo {
            name: RFF_MODULE.into(),
            clock: "clock".into(),
            inputs: vec!["d".into(), "reset".into()],
            outputs: vec!["q".into()],
        }]
    }
}

pub use spe_gen::emit::preset::RFF_MODULE;

/// The shared flop module (written to `gen/spe_rff.v`).
pub const RFF_VERILOG: &str = "\
// spe_rff: D register with synchronous, active-high reset to INIT.
// Every flip-flop of the SPE unit is an instance of this module.
module spe_rff #(
    parameter integer W = 1,
    parameter [W-1:0] INIT = {W{1'b0}}
) (
    input  wire         clock,
    input  wire         reset,
    input  wire [W-1:0] d,
    output reg  [W-1:0] q
);
    always @(posedge clock) begin
        if (reset) q <= INIT;
        else       q <= d;
    end
endmodule
";
