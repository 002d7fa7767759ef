// The machinery of the world snapshot's binary format: a byte writer and a checking byte reader,
// the encodings of the engine's value types, and field tables that name every saved field of a
// record once. What each record holds is in `SnapshotRecords.swift`; the world's layout is in
// `World+Snapshot.swift`.
//
// Why a hand-written format: the engine's structs are laid out for the solver (hot fields first,
// scratch fields, fields that the hygiene work removes). A snapshot must not change when that
// layout changes, so the format lists its fields explicitly, by name, in an order of its own, and a
// test (`SnapshotFormatTests`) fails when a struct gains a stored property that the format neither
// saves nor lists as not saved.

/// The snapshot format's version numbers.
///
/// The rule: any change to what a snapshot holds or how it is laid out bumps ``current``; readers
/// keep reading every older version (a field added in version N is declared `since: N` and keeps
/// its in-memory default when an older snapshot is read; a removed field stays in its table as
/// `retired(…, until: N)` so older snapshots still parse); a snapshot of a version above
/// ``current`` is refused before anything else is read.
package enum SnapshotFormat {
    /// The version this build writes: 3 (version 2 added each touching contact's graph colour,
    /// which it keeps from step to step; version 3, the margin of a contact with no point past the
    /// speculative distance, which bounds how long its manifold is kept).
    package static let current = 3
    /// The oldest version this build reads.
    package static let oldest = 1
    /// The four bytes every world snapshot begins with: "SDWS" (swift-dynamics world snapshot).
    static let magic: [UInt8] = [0x53, 0x44, 0x57, 0x53]
}

// MARK: - Bytes

/// Appends little-endian values to a byte array.
struct ByteWriter {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 0) { bytes.reserveCapacity(capacity) }

    mutating func u8(_ v: UInt8) { bytes.append(v) }
    mutating func u32(_ v: UInt32) {
        withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) }
    }
    mutating func u64(_ v: UInt64) {
        withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) }
    }
    mutating func i32(_ v: Int32) { u32(UInt32(bitPattern: v)) }
    /// A Float by its bit pattern: exact, infinities and signed zeros included.
    mutating func f32(_ v: Float) { u32(v.bitPattern) }
    mutating func count(_ n: Int) { u32(UInt32(truncatingIfNeeded: n)) }
    mutating func int32s(_ xs: [Int32]) { count(xs.count); for x in xs { i32(x) } }
}

/// Reads what `ByteWriter` wrote, checking as it goes: reading past the end, a flag that is not 0
/// or 1, an enumeration value out of range or a count larger than the bytes left throws
/// ``WorldSnapshotError``, never traps.
struct ByteReader {
    let bytes: [UInt8]
    private(set) var offset = 0
    /// The format version being read.
    let version: Int
    /// What is being read ("body 12"), for error messages.
    var record = "header"
    /// The field being read, for error messages.
    var field = ""
    /// The first field since `resetFiniteCheck()` that held a non-finite Float, if any.
    private(set) var nonFiniteField: String?
    /// When set, every field read is recorded with its bytes (for `WorldSnapshot.differences`).
    var trace: [(label: String, bytes: Range<Int>)]?

    init(bytes: [UInt8], version: Int) {
        self.bytes = bytes
        self.version = version
    }

    var remaining: Int { bytes.count - offset }

    func corrupt(_ why: String) -> WorldSnapshotError {
        .corrupt("\(why) (\(record)\(field.isEmpty ? "" : ", field \(field)"), byte \(offset))")
    }

    mutating func take(_ n: Int) throws -> Int {
        guard n <= remaining else { throw corrupt("the snapshot ends early") }
        defer { offset += n }
        return offset
    }

    mutating func u8() throws -> UInt8 { bytes[try take(1)] }
    mutating func u32() throws -> UInt32 {
        let at = try take(4)
        return UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24
    }
    mutating func u64() throws -> UInt64 {
        let lo = UInt64(try u32())
        return lo | UInt64(try u32()) << 32
    }
    mutating func i32() throws -> Int32 { Int32(bitPattern: try u32()) }
    mutating func f32() throws -> Float {
        let v = Float(bitPattern: try u32())
        if !v.isFinite && nonFiniteField == nil { nonFiniteField = "\(field) = \(v)" }
        return v
    }
    mutating func bool() throws -> Bool {
        switch try u8() {
        case 0: return false
        case 1: return true
        case let b: throw corrupt("\(b) is not a flag")
        }
    }
    /// A count of entries that take at least `minimumSize` bytes each.
    mutating func count(minimumSize: Int) throws -> Int {
        let n = Int(try u32())
        guard n <= remaining / max(1, minimumSize) else { throw corrupt("a count of \(n) is more than the snapshot holds") }
        return n
    }
    mutating func int32s() throws -> [Int32] {
        let n = try count(minimumSize: 4)
        var xs: [Int32] = []
        ReadAllocationMeter.reserve(n, of: Int32.self)
        xs.reserveCapacity(n)
        for _ in 0..<n { xs.append(try i32()) }
        return xs
    }
    mutating func resetFiniteCheck() { nonFiniteField = nil }
    /// Throws unless every byte was read.
    func finish() throws {
        guard remaining == 0 else { throw corrupt("\(remaining) bytes are left over") }
    }
}

// MARK: - Values

/// A value type with a fixed, hand-written encoding (its fields in a stated order).
protocol SnapshotValue: SendableMetatype {
    func write(to w: inout ByteWriter)
    static func read(from r: inout ByteReader) throws -> Self
}

extension Float: SnapshotValue {
    func write(to w: inout ByteWriter) { w.f32(self) }
    static func read(from r: inout ByteReader) throws -> Float { try r.f32() }
}
extension Int32: SnapshotValue {
    func write(to w: inout ByteWriter) { w.i32(self) }
    static func read(from r: inout ByteReader) throws -> Int32 { try r.i32() }
}
extension UInt32: SnapshotValue {
    func write(to w: inout ByteWriter) { w.u32(self) }
    static func read(from r: inout ByteReader) throws -> UInt32 { try r.u32() }
}
extension UInt64: SnapshotValue {
    func write(to w: inout ByteWriter) { w.u64(self) }
    static func read(from r: inout ByteReader) throws -> UInt64 { try r.u64() }
}
/// An `Int` as 64 bits, so a snapshot reads the same on 32- and 64-bit platforms (where it fits).
extension Int: SnapshotValue {
    func write(to w: inout ByteWriter) { w.u64(UInt64(bitPattern: Int64(self))) }
    static func read(from r: inout ByteReader) throws -> Int {
        let v = Int64(bitPattern: try r.u64())
        guard let i = Int(exactly: v) else { throw r.corrupt("\(v) does not fit an Int") }
        return i
    }
}
extension Bool: SnapshotValue {
    func write(to w: inout ByteWriter) { w.u8(self ? 1 : 0) }
    static func read(from r: inout ByteReader) throws -> Bool { try r.bool() }
}
/// x, y.
extension Vec2: SnapshotValue {
    func write(to w: inout ByteWriter) { w.f32(x); w.f32(y) }
    static func read(from r: inout ByteReader) throws -> Vec2 { Vec2(try r.f32(), try r.f32()) }
}
/// cos, sin (not the angle: recomputing them would not give the same bits).
extension Rot: SnapshotValue {
    func write(to w: inout ByteWriter) { w.f32(c); w.f32(s) }
    static func read(from r: inout ByteReader) throws -> Rot { Rot(c: try r.f32(), s: try r.f32()) }
}
/// Position, then rotation.
extension Transform: SnapshotValue {
    func write(to w: inout ByteWriter) { p.write(to: &w); q.write(to: &w) }
    static func read(from r: inout ByteReader) throws -> Transform { Transform(p: try .read(from: &r), q: try .read(from: &r)) }
}
/// Lower, then upper corner.
extension AABB: SnapshotValue {
    func write(to w: inout ByteWriter) { lower.write(to: &w); upper.write(to: &w) }
    static func read(from r: inout ByteReader) throws -> AABB { AABB(lower: try .read(from: &r), upper: try .read(from: &r)) }
}
/// Category bits, mask bits, group index.
extension Filter: SnapshotValue {
    func write(to w: inout ByteWriter) { w.u64(categoryBits); w.u64(maskBits); w.i32(groupIndex) }
    static func read(from r: inout ByteReader) throws -> Filter {
        Filter(categoryBits: try r.u64(), maskBits: try r.u64(), groupIndex: try r.i32())
    }
}
/// Index, then generation.
extension BodyID: SnapshotValue {
    func write(to w: inout ByteWriter) { w.i32(index); w.u32(generation) }
    static func read(from r: inout ByteReader) throws -> BodyID { BodyID(index: try r.i32(), generation: try r.u32()) }
}
/// Side 0, then side 1.
extension EdgeLinks: SnapshotValue {
    func write(to w: inout ByteWriter) { w.i32(side0); w.i32(side1) }
    static func read(from r: inout ByteReader) throws -> EdgeLinks { EdgeLinks(side0: try r.i32(), side1: try r.i32()) }
}

/// An enumeration stored as one byte: its raw value, which the format fixes (`case` order in the
/// source may change, the raw values may not).
protocol SnapshotByteEnum: SnapshotValue, RawRepresentable where RawValue == UInt8 {}
extension SnapshotByteEnum {
    func write(to w: inout ByteWriter) { w.u8(rawValue) }
    static func read(from r: inout ByteReader) throws -> Self {
        let raw = try r.u8()
        guard let v = Self(rawValue: raw) else { throw r.corrupt("\(raw) is not a \(Self.self)") }
        return v
    }
}
extension BodyType: SnapshotByteEnum {}
extension ShapeKind: SnapshotByteEnum {}
extension JointKind: SnapshotByteEnum {}

// MARK: - Records

/// One saved field of a record: its name (the stored property's), the version that added it and,
/// for a field no longer saved, the version that dropped it.
struct SnapshotField<Root>: Sendable {
    let name: String
    let since: Int
    let until: Int?
    let write: @Sendable (Root, inout ByteWriter) -> Void
    let read: @Sendable (inout Root, inout ByteReader) throws -> Void

    /// Whether a snapshot of `version` holds this field.
    func isPresent(in version: Int) -> Bool { since <= version && (until.map { version < $0 } ?? true) }

    /// A stored property saved with its value type's encoding.
    static func field<V: SnapshotValue>(_ name: String, _ path: WritableKeyPath<Root, V> & Sendable, since: Int = 1) -> Self {
        SnapshotField(name: name, since: since, until: nil,
                      write: { root, w in root[keyPath: path].write(to: &w) },
                      read: { root, r in root[keyPath: path] = try V.read(from: &r) })
    }

    /// A stored property that is itself a record (its own field table).
    static func record<V: SnapshotRecord>(_ name: String, _ path: WritableKeyPath<Root, V> & Sendable, since: Int = 1) -> Self {
        SnapshotField(name: name, since: since, until: nil,
                      write: { root, w in root[keyPath: path].writeFields(to: &w) },
                      read: { root, r in
                          var v = root[keyPath: path]
                          try v.readFields(from: &r, prefix: name + ".")
                          root[keyPath: path] = v
                      })
    }

    /// A field that snapshots of versions `since..<until` hold but this build no longer has: read
    /// and dropped, never written.
    static func retired<V: SnapshotValue>(_ name: String, _ type: V.Type, since: Int = 1, until: Int) -> Self {
        SnapshotField(name: name, since: since, until: until,
                      write: { _, _ in }, read: { _, r in _ = try V.read(from: &r) })
    }

    /// A field with its own encoding.
    static func custom(_ name: String, since: Int = 1,
                       write: @escaping @Sendable (Root, inout ByteWriter) -> Void,
                       read: @escaping @Sendable (inout Root, inout ByteReader) throws -> Void) -> Self {
        SnapshotField(name: name, since: since, until: nil, write: write, read: read)
    }
}

/// A struct saved field by field through its table. The table is the format: it lists every field
/// that decides how the world continues, in the order they are written; `notSaved` lists the other
/// stored properties with the reason (scratch of one step, derived, write-only).
protocol SnapshotRecord: SendableMetatype {
    static var snapshotFields: [SnapshotField<Self>] { get }
    /// Stored properties deliberately not in the format: name → why.
    static var notSaved: KeyValuePairs<String, String> { get }
    /// A value to read into: every field not in an older snapshot keeps this value's.
    init()
}

extension SnapshotRecord {
    func writeFields(to w: inout ByteWriter) {
        for f in Self.snapshotFields where f.until == nil { f.write(self, &w) }
    }

    mutating func readFields(from r: inout ByteReader, prefix: String = "") throws {
        let saved = r.field
        defer { r.field = saved }
        for f in Self.snapshotFields where f.isPresent(in: r.version) {
            r.field = prefix + f.name
            let start = r.offset
            try f.read(&self, &r)
            if r.trace != nil { r.trace!.append(("\(r.record).\(r.field)", start..<r.offset)) }
        }
    }

    /// The stored properties that the format neither saves nor lists as not saved, and the names it
    /// lists that are no longer stored properties: both empty when the table is complete.
    static func coverageProblems() -> [String] {
        let stored = Mirror(reflecting: Self()).children.compactMap(\.label)
        let saved = snapshotFields.filter { $0.until == nil }.map(\.name)
        let skipped = notSaved.map(\.key)
        var problems: [String] = []
        for name in stored where !saved.contains(name) && !skipped.contains(name) {
            problems.append("\(Self.self).\(name) is a stored property that the snapshot format does not cover: add it to \(Self.self).snapshotFields in Sources/DynamicsEngine/Snapshot/SnapshotRecords.swift (since: the next format version, and bump SnapshotFormat.current), or to \(Self.self).notSaved with the reason it need not be saved.")
        }
        for name in saved + skipped where !stored.contains(name) {
            problems.append("\(Self.self).\(name) is in the snapshot format's table but is no longer a stored property: retire it (`.retired(…, until: next version)`) or rename its entry.")
        }
        return problems
    }
}
