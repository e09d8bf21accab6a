//! `spe_soc__uart`: UART transmitter, 8 data bits, no parity, one stop bit, LSB first.
//!
//! ```text
//!  start & !busy --> shift = {1, data, 0}, ten bits to go, one bit time each
//!  tx = shift[0] while busy, 1 when idle
//! ```
//!
//! A `start` while busy is ignored: software waits for `busy` to fall (`SOC_UART_STATUS`).

use rust_hdl::prelude::*;
use spe_rtl::flop::Rff;
use spe_rtl::K;

#[derive(LogicBlock, Default)]
pub struct UartTx {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub start: Signal<In, Bit>,
    pub data: Signal<In, Bits<8>>,
    pub tx: Signal<Out, Bit>,
    pub busy: Signal<Out, Bit>,
    // State: the frame being shifted out, bits left, cycles left in this bit.
    s_shift: Rff<Bits<10>>,
    s_bits: Rff<Bits<4>>,
    s_count: Rff<Bits<16>>,
    // Constants.
    k_div: K<Bits<16>>,
    k_stop: K<Bits<10>>,
    k_frame_bits: K<Bits<4>>,
    k_one4: K<Bits<4>>,
    k_one16: K<Bits<16>>,
    k_zero4: K<Bits<4>>,
    k_zero16: K<Bits<16>>,
}

impl UartTx {
    /// A transmitter with a bit time of `div` clock cycles (clock / baud rate).
    pub fn new(div: u32) -> Self {
        assert!(
            (1..=0xffff).contains(&div),
            "UART divisor {div} out of 1..=65535"
        );
        Self {
            k_div: K::new(u64::from(div - 1).into()),
            k_stop: K::new((1u64 << 9).into()),
            k_frame_bits: K::new(10u64.into()),
            k_one4: K::new(1u64.into()),
            k_one16: K::new(1u64.into()),
            ..Default::default()
        }
    }
}

spe_rtl::rff_setup!(impl[] UartTx: s_shift, s_bits, s_count);

impl spe_rtl::flop::Kernel for UartTx {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, s_shift, s_bits, s_count);
        self.busy.next = self.s_bits.q.val() != self.k_zero4.val();
        if !self.busy.val() {
            if self.start.val() {
                // Start bit (0) in bit 0, the data, the stop bit (1) in bit 9.
                self.s_shift.d.next = (bit_cast::<10, 8>(self.data.val()) << 1) | self.k_stop.val();
                self.s_bits.d.next = self.k_frame_bits.val();
                self.s_count.d.next = self.k_div.val();
            }
        } else if self.s_count.q.val() == self.k_zero16.val() {
            self.s_shift.d.next = (self.s_shift.q.val() >> 1) | self.k_stop.val();
            self.s_bits.d.next = self.s_bits.q.val() - self.k_one4.val();
            self.s_count.d.next = self.k_div.val();
        } else {
            self.s_count.d.next = self.s_count.q.val() - self.k_one16.val();
        }
        self.tx.next = !self.busy.val() | self.s_shift.q.val().get_bit(0);
    }
}
