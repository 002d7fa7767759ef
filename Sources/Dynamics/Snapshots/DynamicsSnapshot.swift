import DynamicsEngine
import Foundation

/// Everything that decides how an animator continues, captured by
/// ``DynamicAnimator/snapshot()`` and put back by ``DynamicAnimator/restore(_:)``.
///
/// A snapshot holds the engine world (every body, shape, contact with its warm-start impulses,
/// joint with its accumulated impulses, sleep timer and sleeping island), the animator's own state
/// (``DynamicAnimator/elapsedTime``, the ``DynamicAnimator/advance(by:)`` remainder, whether it is
/// running, the frame index, which body simulates which item, the collision bookkeeping behind
/// the delegate's *began*/*ended* calls) and every behaviour's state: property values (gravity,
/// push direction and ``PushBehavior/active``, snap point, attachment settings, item properties,
/// field settings and a noise field's time), velocities waiting for an item to join, and the
/// engine objects each behaviour owns. An animator restored from it continues **bit for bit** like
/// the animator it was taken from, also after a trip through JSON or any other `Codable` format.
///
/// What it does not hold are things that cannot be archived: the items and behaviours themselves
/// (a snapshot names them by their place in the behaviour tree), closures (`action` blocks, a
/// custom field's evaluation block, frame observers), delegates and diagnostics. So a snapshot is
/// restored into an animator *with the same items and behaviours*: the animator it came from, or
/// one your app builds the same way again after a relaunch. Anything else is refused with
/// ``DynamicsSnapshotError``.
///
/// The encoding is explicit and versioned (see <doc:Snapshots>): the engine world is a binary
/// record whose fields are listed by hand, independent of how the engine lays out its memory, and
/// the animator's and behaviours' states are lists of numbers written field by field. Numbers are
/// stored as their IEEE-754 bit patterns (so every bit, infinities and signed zeros included,
/// survives any coder). A checksum over the whole snapshot makes decoding an altered archive fail
/// with `DecodingError.dataCorrupted`; an archive written by a newer format version than
/// ``formatVersion`` fails with ``DynamicsSnapshotError/unsupportedFormatVersion(_:)`` before the
/// rest of it is read. Snapshots saved by this version stay readable by later versions, and
/// continue bit for bit as long as the physics itself has not changed.
///
/// ```swift
/// let data = try JSONEncoder().encode(animator.snapshot())        // on suspend
/// // … later, perhaps in a new process:
/// let saved = try JSONDecoder().decode(DynamicsSnapshot.self, from: data)
/// try animator.restore(saved)                                      // on resume
/// ```
public struct DynamicsSnapshot: Codable, Sendable, Equatable {
    /// The version of the encoding this build writes: 3 (version 2 added each touching contact's
    /// place in the solver's constraint graph; version 3, how far a pair of items that do not
    /// touch was from the contact distance, which decides when their contact is next computed).
    /// It grows by one whenever what a snapshot holds or how it is laid out changes; this build
    /// reads every version from 1 up to it.
    public static let formatVersion = SnapshotFormat.current

    /// The version of the encoding this snapshot was written in. Decoding an archive of a version
    /// newer than ``DynamicsSnapshot/formatVersion`` (the static one) throws
    /// ``DynamicsSnapshotError/unsupportedFormatVersion(_:)``.
    public internal(set) var formatVersion: Int
    /// The animator's ``DynamicAnimator/elapsedTime`` when the snapshot was taken, in seconds.
    public internal(set) var elapsedTime: TimeInterval
    /// The animator's frame index when the snapshot was taken: the ``FrameReport/index`` of the
    /// next frame.
    public internal(set) var frameIndex: Int
    /// The number of items in the animator's world when the snapshot was taken (a group counts once).
    public internal(set) var itemCount: Int

    /// The configuration the snapshot fits: the reference bounds, then one line per behaviour in
    /// depth-first order (type, shape of the tree, items by index, settings fixed at creation),
    /// then one line per group. Compared line by line on restore.
    var configuration: [String]
    /// The animator's state, as a tape of IEEE-754 bit patterns (see `SnapshotWriter`).
    var animatorState: [UInt64]
    /// Each behaviour's state, in depth-first order.
    var behaviorStates: [[UInt64]]
    /// The engine world.
    var world: WorldSnapshot
    /// FNV-1a over everything above.
    var checksum: UInt64

    init(elapsedTime: TimeInterval, frameIndex: Int, itemCount: Int, configuration: [String],
         animatorState: [UInt64], behaviorStates: [[UInt64]], world: WorldSnapshot) {
        self.formatVersion = Self.formatVersion
        self.elapsedTime = elapsedTime
        self.frameIndex = frameIndex
        self.itemCount = itemCount
        self.configuration = configuration
        self.animatorState = animatorState
        self.behaviorStates = behaviorStates
        self.world = world
        self.checksum = 0
        self.checksum = computedChecksum
    }

    private enum CodingKeys: String, CodingKey {
        case formatVersion, elapsedTime, frameIndex, itemCount, configuration, animatorState, behaviorStates, world, checksum
    }

    /// Decodes a snapshot. The format version is read first: an archive of a version this build
    /// does not know (newer than ``DynamicsSnapshot/formatVersion``, or below 1) throws
    /// ``DynamicsSnapshotError/unsupportedFormatVersion(_:)`` before anything else is read. An
    /// archive whose checksum does not match its content (altered or truncated after it was
    /// written) fails with `DecodingError.dataCorrupted`.
    ///
    /// - Parameter decoder: The decoder to read from.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        formatVersion = try c.decode(Int.self, forKey: .formatVersion)
        guard (SnapshotFormat.oldest...SnapshotFormat.current).contains(formatVersion) else {
            throw DynamicsSnapshotError.unsupportedFormatVersion(formatVersion)
        }
        elapsedTime = Double(bitPattern: try c.decode(UInt64.self, forKey: .elapsedTime))
        frameIndex = try c.decode(Int.self, forKey: .frameIndex)
        itemCount = try c.decode(Int.self, forKey: .itemCount)
        configuration = try c.decode([String].self, forKey: .configuration)
        animatorState = try c.decode([UInt64].self, forKey: .animatorState)
        behaviorStates = try c.decode([[UInt64]].self, forKey: .behaviorStates)
        world = try c.decode(WorldSnapshot.self, forKey: .world)
        checksum = try c.decode(UInt64.self, forKey: .checksum)
        guard world.formatVersion == formatVersion else {
            throw DecodingError.dataCorruptedError(forKey: .world, in: c,
                                                   debugDescription: "The snapshot's world is of format version \(world.formatVersion.map(String.init) ?? "none"), the snapshot of \(formatVersion).")
        }
        guard checksum == computedChecksum else {
            throw DecodingError.dataCorruptedError(forKey: .checksum, in: c,
                                                   debugDescription: "The snapshot's checksum does not match its content; it was altered after it was written.")
        }
    }

    /// Encodes the snapshot.
    ///
    /// - Parameter encoder: The encoder to write to.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(formatVersion, forKey: .formatVersion)
        try c.encode(elapsedTime.bitPattern, forKey: .elapsedTime)
        try c.encode(frameIndex, forKey: .frameIndex)
        try c.encode(itemCount, forKey: .itemCount)
        try c.encode(configuration, forKey: .configuration)
        try c.encode(animatorState, forKey: .animatorState)
        try c.encode(behaviorStates, forKey: .behaviorStates)
        try c.encode(world, forKey: .world)
        try c.encode(checksum, forKey: .checksum)
    }

    /// FNV-1a over every field but the checksum.
    var computedChecksum: UInt64 {
        var h = FNV1a()
        func word(_ v: UInt64) { h.add(bits: v) }
        func words(_ xs: [UInt64]) { word(UInt64(xs.count)); for x in xs { word(x) } }
        word(UInt64(bitPattern: Int64(formatVersion)))
        word(elapsedTime.bitPattern)
        word(UInt64(bitPattern: Int64(frameIndex)))
        word(UInt64(bitPattern: Int64(itemCount)))
        word(UInt64(configuration.count))
        for line in configuration { words(line.utf8.map { UInt64($0) }) }
        words(animatorState)
        word(UInt64(behaviorStates.count))
        for s in behaviorStates { words(s) }
        word(world.contentHash)
        return h.value
    }
}

/// Why ``DynamicAnimator/restore(_:)`` refused a snapshot. The animator is unchanged, and the same
/// message is also appended to ``DynamicAnimator/diagnostics``.
public enum DynamicsSnapshotError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The snapshot was taken from an animator with other items or behaviours (or other reference
    /// bounds); the message names the first difference.
    case configurationMismatch(String)
    /// The snapshot is inconsistent: altered, truncated, or not a snapshot.
    case corrupt(String)
    /// The snapshot was written in a format version this build does not read: a newer one (saved
    /// by a later version of the library), or a number that is no version at all. Nothing of it
    /// was read.
    case unsupportedFormatVersion(Int)
    /// `restore(_:)` was called during a step (from an `action`, a delegate callback or a frame
    /// observer), or while the animator was rebuilding its behaviour tree or its world (from
    /// `willMove(to:)` or a diagnostic handler); call it between steps.
    case restoringDuringStep

    /// A sentence saying what was wrong.
    public var description: String {
        switch self {
        case .configurationMismatch(let why):
            return "The snapshot does not fit this animator: \(why)"
        case .corrupt(let why):
            return "The snapshot is corrupt: \(why)"
        case .unsupportedFormatVersion(let version):
            return "The snapshot was written in format version \(version); this build reads versions \(SnapshotFormat.oldest)…\(SnapshotFormat.current). Update swift-dynamics to read it."
        case .restoringDuringStep:
            return "restore(_:) cannot run during a step's callbacks; call it between steps."
        }
    }
}

// MARK: - The state tape

/// Writes a behaviour's or the animator's state as a flat list of numbers (a *tape*). Integers,
/// flags and ids are exact in a `Double`; 64-bit masks are stored by bit pattern.
struct SnapshotWriter {
    private(set) var values: [Double] = []

    mutating func add(_ value: Double) { values.append(value) }
    mutating func add(_ value: CGFloat) { values.append(Double(value)) }
    mutating func add(_ value: Float) { values.append(Double(value)) }
    mutating func add(_ value: Int) { values.append(Double(value)) }
    mutating func add(_ value: Bool) { values.append(value ? 1 : 0) }
    mutating func add(bits: UInt64) { values.append(Double(bitPattern: bits)) }
    mutating func add(_ point: CGPoint) { add(point.x); add(point.y) }
    mutating func add(_ vector: CGVector) { add(vector.dx); add(vector.dy) }
    mutating func add(_ id: BodyID) { add(Int(id.index)); add(Int(id.generation)) }
    mutating func add(_ id: ShapeID) { add(Int(id.index)); add(Int(id.generation)) }
    mutating func add(_ id: JointID) { add(Int(id.index)); add(Int(id.generation)) }
    /// An optional value: a presence flag, then the value (0 when absent).
    mutating func add(_ value: CGFloat?) { add(value != nil); add(Double(value ?? 0)) }
    mutating func add(_ value: Bool?) { add(value != nil); add(value ?? false) }

    /// The tape as bit patterns, for `DynamicsSnapshot`.
    var bits: [UInt64] { values.map(\.bitPattern) }
}

/// Reads a tape written by `SnapshotWriter`, checking every value: a tape that is too short, too
/// long, or holds a value out of range throws `DynamicsSnapshotError.corrupt`.
struct SnapshotReader {
    private let values: [Double]
    private var index = 0
    /// What is being read, for error messages.
    let subject: String
    /// The format version of the snapshot being read: a behaviour whose state gains a value in a
    /// later version reads it only when `formatVersion` is at least that version.
    let formatVersion: Int

    init(bits: [UInt64], subject: String, formatVersion: Int = DynamicsSnapshot.formatVersion) {
        ReadAllocationMeter.reserve(bits.count, of: Double.self)
        values = bits.map(Double.init(bitPattern:))
        self.subject = subject
        self.formatVersion = formatVersion
    }

    func corrupt(_ why: String) -> DynamicsSnapshotError {
        .corrupt("\(subject), value \(max(0, index - 1)): \(why)")
    }

    mutating func double() throws -> Double {
        guard index < values.count else { throw corrupt("the state ends early") }
        index += 1
        return values[index - 1]
    }

    /// A finite number.
    mutating func finite() throws -> Double {
        let v = try double()
        guard v.isFinite else { throw corrupt("a value that must be finite is \(v)") }
        return v
    }

    /// A finite, non-negative number.
    mutating func nonNegative() throws -> Double {
        let v = try finite()
        guard v >= 0 else { throw corrupt("a value that must not be negative is \(v)") }
        return v
    }

    mutating func float() throws -> Float {
        let v = try finite()
        guard let f = Float(exactly: v) else { throw corrupt("\(v) is not a Float") }
        return f
    }

    mutating func int(_ range: ClosedRange<Int>) throws -> Int {
        let v = try double()
        guard v.isFinite, v == v.rounded(), v >= Double(range.lowerBound), v <= Double(range.upperBound) else {
            throw corrupt("\(v) is not a whole number in \(range.lowerBound)…\(range.upperBound)")
        }
        return Int(v)
    }

    /// The values not read yet.
    var remaining: Int { values.count - index }

    /// A count of following entries, each at least `perEntry` values long.
    mutating func count(perEntry: Int = 1) throws -> Int {
        try int(0...max(0, (values.count - index) / max(perEntry, 1)))
    }

    mutating func bool() throws -> Bool {
        let v = try double()
        guard v == 0 || v == 1 else { throw corrupt("\(v) is not a flag") }
        return v == 1
    }

    mutating func bits() throws -> UInt64 { try double().bitPattern }

    mutating func point() throws -> CGPoint { CGPoint(x: try finite(), y: try finite()) }
    mutating func vector() throws -> CGVector { CGVector(dx: try finite(), dy: try finite()) }

    mutating func optionalNonNegative() throws -> CGFloat? {
        let present = try bool()
        let v = try finite()
        guard present else { return nil }
        guard v >= 0 else { throw corrupt("a value that must not be negative is \(v)") }
        return v
    }

    mutating func optionalFinite() throws -> CGFloat? {
        let present = try bool()
        let v = try finite()
        return present ? v : nil
    }

    mutating func optionalBool() throws -> Bool? {
        let present = try bool()
        let v = try bool()
        return present ? v : nil
    }

    private mutating func id() throws -> (Int32, UInt32) {
        let index = try int(-1...Int(Int32.max))
        let generation = try int(0...Int(UInt32.max))
        return (Int32(index), UInt32(generation))
    }

    mutating func bodyID() throws -> BodyID { let (i, g) = try id(); return BodyID(index: i, generation: g) }
    mutating func shapeID() throws -> ShapeID { let (i, g) = try id(); return ShapeID(index: i, generation: g) }
    mutating func jointID() throws -> JointID { let (i, g) = try id(); return JointID(index: i, generation: g) }

    /// Throws unless every value was read.
    func finish() throws {
        guard index == values.count else { throw corrupt("\(values.count - index) values left over") }
    }
}

/// What a behaviour may consult while it checks its saved state, before anything changes: the
/// world the snapshot holds (not yet the animator's), and the animator's boundary bookkeeping as it
/// will be after the restore.
struct SnapshotRestoreContext {
    /// The world restored from the snapshot.
    let world: World
    /// The behaviour's index in the depth-first list.
    let behaviorIndex: Int
    /// The number of boundary slots after the restore.
    let boundarySlotCount: Int
    /// For each boundary slot, its owner (depth-first index of the collision behaviour) and the
    /// boundary's index in that behaviour (−1: the reference bounds, −2: retired); nil when free.
    let boundaryOwners: [(behavior: Int, boundary: Int)?]
    /// For each collision slot (0…30), the depth-first index of the behaviour that claimed it.
    let collisionSlotOwners: [Int?]
}
