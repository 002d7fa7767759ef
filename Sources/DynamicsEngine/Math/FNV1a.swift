/// FNV-1a, 64-bit: the one hash behind state hashes (benchmarks, determinism tests) and snapshot
/// checksums. Multi-byte values are fed least significant byte first, so a hash is the same on
/// every platform.
package struct FNV1a {
    /// The hash of everything added so far; the offset basis when nothing was.
    package private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    package init() {}

    package mutating func add(_ byte: UInt8) {
        value ^= UInt64(byte)
        value = value &* 0x0000_0100_0000_01B3
    }

    /// The four bytes of `bits`, least significant first.
    package mutating func add(bits: UInt32) {
        var x = bits
        for _ in 0..<4 { add(UInt8(truncatingIfNeeded: x)); x >>= 8 }
    }

    /// The eight bytes of `bits`, least significant first.
    package mutating func add(bits: UInt64) {
        var x = bits
        for _ in 0..<8 { add(UInt8(truncatingIfNeeded: x)); x >>= 8 }
    }

    package mutating func add(_ value: Float) { add(bits: value.bitPattern) }

    package mutating func add(_ value: Double) { add(bits: value.bitPattern) }
}
