/// An open-addressing hash map from a 64-bit pair key to a contact index.
///
/// Only ever looked up, never iterated, so its slot order cannot leak into the simulation's order
/// (determinism). Linear probing with backward-shift deletion keeps it free of tombstones.
struct PairTable {
    private var keys: [UInt64]
    private var values: [Int32]
    private(set) var count = 0
    private var mask: Int
    private static let empty = UInt64.max

    init(capacity: Int = 64) {
        var n = 16
        while n < capacity * 2 { n <<= 1 }
        keys = Array(repeating: PairTable.empty, count: n)
        values = Array(repeating: -1, count: n)
        mask = n - 1
    }

    @inline(__always) private static func hash(_ k: UInt64) -> Int {
        var x = k &* 0x9E37_79B9_7F4A_7C15
        x ^= x >> 29
        return Int(truncatingIfNeeded: x)
    }

    func find(_ key: UInt64) -> Int32 {
        var i = PairTable.hash(key) & mask
        while true {
            let k = keys[i]
            if k == key { return values[i] }
            if k == PairTable.empty { return -1 }
            i = (i + 1) & mask
        }
    }

    /// The keys over raw memory, for the pair search's inner loop: a lookup there costs no
    /// reference counting and no bounds check. Only for the duration of `body`; the table must not
    /// change meanwhile.
    func withKeys<R>(_ body: (KeyView) -> R) -> R {
        keys.withUnsafeBufferPointer { body(KeyView(keys: $0.baseAddress!, mask: mask)) }
    }

    /// Read-only presence test over a table's keys (see `withKeys`).
    struct KeyView {
        let keys: UnsafePointer<UInt64>
        let mask: Int

        /// Whether `key` is in the table. Reads only the key array: the pair search needs no value.
        @inline(__always)
        func contains(_ key: UInt64) -> Bool {
            var i = PairTable.hash(key) & mask
            while true {
                let k = keys[i]
                if k == key { return true }
                if k == PairTable.empty { return false }
                i = (i + 1) & mask
            }
        }
    }

    mutating func insert(_ key: UInt64, _ value: Int32) {
        if (count + 1) * 2 > keys.count { grow() }
        var i = PairTable.hash(key) & mask
        while keys[i] != PairTable.empty {
            if keys[i] == key { values[i] = value; return }
            i = (i + 1) & mask
        }
        keys[i] = key; values[i] = value; count += 1
    }

    mutating func remove(_ key: UInt64) {
        var i = PairTable.hash(key) & mask
        while true {
            if keys[i] == PairTable.empty { return }
            if keys[i] == key { break }
            i = (i + 1) & mask
        }
        // backward-shift: pull later entries of the probe run into the hole
        var hole = i
        var j = (i + 1) & mask
        while keys[j] != PairTable.empty {
            let home = PairTable.hash(keys[j]) & mask
            // move j into hole if its home is not in (hole, j] cyclically
            let inRange = hole <= j ? (home > hole && home <= j) : (home > hole || home <= j)
            if !inRange {
                keys[hole] = keys[j]; values[hole] = values[j]
                hole = j
            }
            j = (j + 1) & mask
        }
        keys[hole] = PairTable.empty; values[hole] = -1
        count -= 1
    }

    private mutating func grow() {
        let oldK = keys, oldV = values
        let n = keys.count * 2
        keys = Array(repeating: PairTable.empty, count: n)
        values = Array(repeating: -1, count: n)
        mask = n - 1
        count = 0
        for i in 0..<oldK.count where oldK[i] != PairTable.empty { insert(oldK[i], oldV[i]) }
    }
}

/// What one pair search found: new pair keys, and keys between two jointed bodies that still need
/// the joint lookup.
struct PairCandidates {
    var found: [UInt64] = []
    var jointed: [UInt64] = []
}
