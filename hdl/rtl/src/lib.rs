//! The SPE sampling unit in rust-hdl: one block per file, one Verilog module per block.
//!
//! | file | module | job |
//! |---|---|---|
//! | [`bundles`] | (none) | the typed bundles between blocks, the sample-phase state |
//! | [`sampler`] | `spe_sampler_<preset>` | population count, interval counter, LFSR jitter, tag, collision |
//! | [`capture`] | `spe_capture_<preset>` | the slot multiplexer: holds the tag cycle's group, selects and classifies the sampled op |
//! | [`tracker`] | `spe_tracker_<preset>` | the sample's life: the phase machine, the op's collection, the merged hook reports, stray detection, events |
//! | [`latency`] | `spe_latency_<preset>` | total / issue / translation latency counters (saturating) |
//! | [`filter`] | `spe_filter_<preset>` | type, event, inverted-event and minimum-latency filters |
//! | [`serializer`] | `spe_serializer_<preset>` | the 64-byte record (fixed-offset packets), one beat at a time |
//! | [`writer`] | `spe_writer_<preset>` | memory write port, PMBPTR, limit, buffer-full, faults |
//! | [`room`] | `spe_room_<preset>` | one thread's registered buffer-room check (T > 1 only) |
//! | [`arbiter`] | `spe_arbiter_<preset>` | the shared writer's round-robin grant between hardware threads (T > 1 only) |
//! | [`regs`] | `spe_regs_<preset>` | the register port and every register |
//! | [`options`] | `spe_<host>_<option>_<preset>` | an option's logic, one file per option: a child block of each host it adds to |
//! | [`top`] | `spe_top_<preset>` | wires the blocks; the interface of `spe_defs::ports::PORTS` |
//! | [`smt_top`] | `spe_top_<preset>` (T > 1) | T copies of the per-thread blocks, the shared serializer and writer behind the arbiter; `PORTS` and `SMT_PORTS` |
//! | [`flop`] | `spe_rff` | the one flip-flop: D register with synchronous reset; `rff_setup!`, a block's reset wiring |
//!
//! **Reset convention.** One clock (`clk`), one synchronous, active-high reset (`reset`):
//! every flip-flop is an `spe_rff` with its reset value as a parameter. While `reset` is
//! high every output except `reg_rdata` and `irq` is low. The behaviour is the golden
//! model's (`verif/model`), cycle for cycle, on every output.

pub mod arbiter;
pub mod bundles;
pub mod capture;
pub mod filter;
pub mod flop;
pub mod gen;
pub mod latency;
pub mod options;
pub mod regs;
pub mod room;
pub mod sampler;
pub mod serializer;
pub mod sim;
// `top` includes the generated port-list macros that `smt_top` uses too.
#[macro_use]
pub mod top;
pub mod smt_top;
pub mod tracker;
pub mod writer;

use rust_hdl::prelude::*;

/// Address bits an Address packet records (VA 55:0, PA 55:0): the width of every PC,
/// branch target and physical address inside the unit.
pub const ADDR_BITS: usize = spe_defs::packet::addr_payload::ADDR_BITS as usize;

/// Events 31:16, the 4-byte Events payload's high half: the width of the words that carry
/// the events above bit 15 (`Options::sve_events`, `Options::v1p4_events`, `Options::sme`) between the
/// tracker, the filter, the register block and the serializer, with event 16 at bit 0.
pub const HI_EVENT_BITS: usize = 16;

/// Where beat 6 of a record with a 4-byte Events payload carries the high-event word: bit
/// 40, bytes 53 and 54 (beat 6's bits below it are `Record`'s: the serializer's block
/// `options::events_hi::SerializerEventsHi` keeps them).
pub const HI_EVENTS_IN_BEAT6: usize = 40;

/// The events above bit 15 of the event mask `mask` as a high-event word (bit `e` of `mask`
/// at bit `e - 16`). Panics on an event above 31, which no Events payload of the record
/// carries.
pub fn hi_events(mask: u64) -> Bits<HI_EVENT_BITS> {
    assert_eq!(
        mask >> (16 + HI_EVENT_BITS),
        0,
        "event above 31 in {mask:#x}: the record's Events payload has 32 bits"
    );
    ((mask >> 16) & spe_defs::low_mask(HI_EVENT_BITS as u32)).into()
}

/// Slice assignments of a high-event word into a 64-bit word, for kernels that loop over
/// the optional high-event signals (rust-hdl evaluates a `set_value_<f>` call's width and
/// offset on the receiver outside the loop, so the receiver cannot be an indexed element):
/// `w.next.set_value_ev_at16(x)` emits `w[(16)+:(16)] = x` (PMSEVFR's bits 31:16),
/// `set_value_ev_at40` emits `w[(40)+:(16)] = x` (bytes 53 and 54 of beat 6).
pub trait EventSplice {
    fn get_my_width_ev_at16(&self) -> usize {
        HI_EVENT_BITS
    }
    fn get_my_offset_ev_at16(&self) -> usize {
        16
    }
    fn set_value_ev_at16(&mut self, x: Bits<HI_EVENT_BITS>);
    fn get_my_width_ev_at40(&self) -> usize {
        HI_EVENT_BITS
    }
    fn get_my_offset_ev_at40(&self) -> usize {
        HI_EVENTS_IN_BEAT6
    }
    fn set_value_ev_at40(&mut self, x: Bits<HI_EVENT_BITS>);
}

impl EventSplice for Bits<64> {
    fn set_value_ev_at16(&mut self, x: Bits<HI_EVENT_BITS>) {
        self.set_bits::<HI_EVENT_BITS>(16, x);
    }
    fn set_value_ev_at40(&mut self, x: Bits<HI_EVENT_BITS>) {
        self.set_bits::<HI_EVENT_BITS>(HI_EVENTS_IN_BEAT6, x);
    }
}

/// A block's constant: rust-hdl's `Constant` (a sized `localparam`) with a zero `Default`,
/// so a block derives `Default` and its `new` sets only the non-zero constants (`Self {
/// k_x: K::new(v), ..Default::default() }`). A block's bare `Default` is not usable: use `new`.
#[derive(Clone, Copy, Debug)]
pub struct K<T: Synth>(Constant<T>);

impl<T: Synth> K<T> {
    pub fn new(val: T) -> Self {
        K(Constant::new(val))
    }
    pub fn val(&self) -> T {
        self.0.val()
    }
}

impl<T: Synth> Default for K<T> {
    fn default() -> Self {
        K::new(T::default())
    }
}

impl<T: Synth> Logic for K<T> {
    fn update(&mut self) {}
}

impl<T: Synth> Atom for K<T> {
    fn bits(&self) -> usize {
        self.0.bits()
    }
    fn connected(&self) -> bool {
        self.0.connected()
    }
    fn changed(&self) -> bool {
        self.0.changed()
    }
    fn kind(&self) -> AtomKind {
        self.0.kind()
    }
    fn descriptor(&self) -> TypeDescriptor {
        self.0.descriptor()
    }
    fn vcd(&self) -> VCDValue {
        self.0.vcd()
    }
    fn id(&self) -> usize {
        self.0.id()
    }
    fn verilog(&self) -> VerilogLiteral {
        self.0.verilog()
    }
    fn constraints(&self) -> Vec<PinConstraint> {
        self.0.constraints()
    }
}

impl<T: Synth> Block for K<T> {
    fn connect_all(&mut self) {}
    fn update_all(&mut self) {}
    fn has_changed(&self) -> bool {
        false
    }
    fn accept(&self, name: &str, probe: &mut dyn Probe) {
        probe.visit_atom(name, self);
    }
}

/// Zero-extension of an `N`-bit value to `T` bits, for kernels: a [`Spliced`] word whose
/// field is at bit 0. rust-hdl's `bit_cast` emits `((x) & T'hFF..)`, which mixes operand
/// widths and trips Verilator's WIDTH lint. A `Zext` local is written with `w.next = zero;
/// w.next.set_value_at(x);`, which rust-hdl emits as the slice assignment `w[(0)+:(N)] =
/// x;`, and read with `w.val().to_bits()`, which it emits as plain `w`.
/// (`set_value_<f>`/`get_my_width_<f>`/`get_my_offset_<f>` are the hooks rust-hdl's kernel
/// translator uses for struct fields.)
pub type Zext<const N: usize, const T: usize> = Spliced<N, 0, T>;

/// A `T`-bit word with an `N`-bit field at bit `OFF`, for kernels that place a narrow value
/// into a wider word without a zero-extended local (whose upper bits would be constant wires).
/// Written as `w.next = base.into(); w.next.set_value_at(x);`, which rust-hdl emits as `w =
/// base; w[(OFF)+:(N)] = x;`, and read with `w.val().to_bits()` (plain `w`). `base` is any
/// `Bits<T>` expression: the bits outside the field come from it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Spliced<const N: usize, const OFF: usize, const T: usize> {
    v: Bits<T>,
}

impl<const N: usize, const OFF: usize, const T: usize> Spliced<N, OFF, T> {
    pub fn get_my_width_at(&self) -> usize {
        N
    }
    pub fn get_my_offset_at(&self) -> usize {
        OFF
    }
    /// Replaces bits `OFF + N - 1 .. OFF` with `x`.
    pub fn set_value_at(&mut self, x: Bits<N>) {
        assert!(OFF + N <= T);
        self.v.set_bits::<N>(OFF, x);
    }
    /// The word.
    pub fn to_bits(self) -> Bits<T> {
        self.v
    }
}

impl<const N: usize, const OFF: usize, const T: usize> From<Bits<T>> for Spliced<N, OFF, T> {
    fn from(v: Bits<T>) -> Self {
        Spliced { v }
    }
}

impl<const N: usize, const OFF: usize, const T: usize> Synth for Spliced<N, OFF, T> {
    const BITS: usize = T;
    fn descriptor() -> TypeDescriptor {
        Bits::<T>::descriptor()
    }
    fn vcd(self) -> VCDValue {
        self.v.vcd()
    }
    fn verilog(self) -> VerilogLiteral {
        self.v.verilog()
    }
}
