import Foundation

/// Everything that decides how a world continues, so a restored world steps bit for bit like the
/// original, in the explicit binary format of `SnapshotRecords.swift`: every live body, shape,
/// contact (manifold points with their feature ids and warm-start impulses, recycling caches) and
/// joint (accumulated impulses) field by field; each free slot's generation and the free lists
/// (they decide which index and generation a new object gets); the awake order, the sleeping
/// islands and the pending broad-phase work. Derived structures (pair table, grid, proxy lists) are
/// rebuilt, because nothing about their layout reaches the results: every query that feeds the
/// step is sorted or reduced with a minimum.
///
/// Layout (little-endian; floats by their IEEE-754 bit patterns, so every bit survives):
/// "SDWS", format version (u32); gravity; step count; cell size, whether it was chosen, the proxy
/// count it was chosen for; then bodies, shapes, contacts and joints, each as a slot count and per
/// slot a live flag (and a generation, but for contacts) followed, for a live slot, by the
/// record's fields, then the free list; then the awake bodies, the sleeping islands, the free
/// island slots and the moved proxies. Counts are u32, indices i32.
package struct WorldSnapshot: Codable, Sendable, Equatable {
    /// The encoded world.
    package private(set) var bytes: [UInt8]

    /// A snapshot of these bytes, as read from an archive (checked only when restored).
    package init(bytes: [UInt8]) { self.bytes = bytes }

    /// The format version in the header, or nil when the bytes do not begin with a world
    /// snapshot's header.
    package var formatVersion: Int? {
        guard bytes.count >= 8, Array(bytes[0..<4]) == SnapshotFormat.magic else { return nil }
        return Int(UInt32(bytes[4]) | UInt32(bytes[5]) << 8 | UInt32(bytes[6]) << 16 | UInt32(bytes[7]) << 24)
    }

    /// Why these bytes cannot be read by this build, before reading anything else; nil when the
    /// header is fine.
    package var headerProblem: String? {
        guard let v = formatVersion else { return "it is not a world snapshot of the explicit format (no \"SDWS\" header)" }
        if v > SnapshotFormat.current {
            return "it was written by format version \(v), newer than this build's \(SnapshotFormat.current); update swift-dynamics to read it"
        }
        if v < SnapshotFormat.oldest { return "format version \(v) is not a version this build reads (\(SnapshotFormat.oldest)…\(SnapshotFormat.current))" }
        return nil
    }

    /// Decodes the bytes (base64 in JSON, data in property lists). A header of an unknown version
    /// is refused here, before anything else is read.
    package init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        bytes = [UInt8](try c.decode(Data.self))
        if let problem = headerProblem {
            throw DecodingError.dataCorruptedError(in: c, debugDescription: "World snapshot refused: \(problem).")
        }
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(Data(bytes))
    }

    /// FNV-1a over every byte: a checksum that the layer above stores next to the snapshot so that
    /// an archive altered after it was written is refused.
    package var contentHash: UInt64 {
        var h = FNV1a()
        h.add(bits: UInt64(bytes.count))
        for b in bytes { h.add(b) }
        return h.value
    }

    /// Where two snapshots differ, field by field (for test failure messages).
    package func differences(from other: WorldSnapshot) -> [String] {
        guard bytes != other.bytes else { return [] }
        func fields(_ s: WorldSnapshot) -> [(label: String, value: [UInt8])] {
            guard let v = s.formatVersion else { return [] }
            var r = ByteReader(bytes: s.bytes, version: v)
            r.trace = []
            let decoded = try? DecodedWorld(reading: &r)
            decoded?.freePolygons()
            return (r.trace ?? []).map { ($0.label, Array(s.bytes[$0.bytes])) }
        }
        let a = fields(self), b = fields(other)
        var d: [String] = []
        for (x, y) in zip(a, b) where x.label != y.label || x.value != y.value {
            d.append(x.label == y.label ? "\(x.label): \(x.value) vs \(y.value)" : "\(x.label) vs \(y.label)")
            if d.count == 5 { break }
        }
        if a.count != b.count { d.append("\(a.count) fields vs \(b.count)") }
        return d.isEmpty ? ["\(bytes.count) bytes vs \(other.bytes.count)"] : d
    }
}

package enum WorldSnapshotError: Error, CustomStringConvertible {
    case corrupt(String)
    package var description: String {
        switch self { case .corrupt(let why): return "world snapshot is corrupt: \(why)" }
    }
}

/// A snapshot read into engine structs, before anything is checked against anything else.
private struct DecodedWorld {
    var gravity = Vec2.zero
    var stepCount = 0
    var cellSize: Float = 0
    var cellSizeChosen = false
    var cellSizeProxyCount = 0
    var bodies: [Body] = [], bodyGenerations: [UInt32] = []
    var freeBodies: [Int32] = []
    var shapes: [Shape] = [], shapeGenerations: [UInt32] = []
    var freeShapes: [Int32] = []
    var contacts: [Contact] = []
    var freeContacts: [Int32] = []
    var joints: [Joint] = [], jointGenerations: [UInt32] = []
    var freeJoints: [Int32] = []
    var awakeBodies: [Int32] = []
    var sleepIslands: [[Int32]] = []
    var freeSleepIslands: [Int32] = []
    var movedProxies: [Int32] = []

    init(reading r: inout ByteReader) throws {
        do {
            try read(&r)
        } catch {
            freePolygons()
            throw error
        }
    }

    func freePolygons() { for s in shapes { s.polygon?.free() } }

    /// Reads `count` slots: a live flag, a generation (for the pools that hand out ids), the
    /// record's fields when live, every float of a live record finite.
    ///
    /// The count is checked against the bytes left before anything is reserved: every slot takes
    /// its flag and generation, and a free one also its entry in the free list after the slots
    /// (a live one takes far more), so a count past `remaining / (flag + generation + 4)` cannot
    /// be true. Each slot becomes an engine record of a few hundred bytes: this bounds what a
    /// forged count can make the reader reserve to that record's size per 5 (contacts) or 9
    /// bytes of input.
    private static func slots<R: SnapshotRecord & PoolElement>(_ name: String, _ r: inout ByteReader, hasGeneration: Bool,
                                                               reserve: (Int) -> Void,
                                                               append: (R, UInt32) -> Void,
                                                               cleanUp: (R) -> Void = { _ in }) throws {
        let n = try r.count(minimumSize: (hasGeneration ? 5 : 1) + 4)
        ReadAllocationMeter.reserve(n, of: R.self)
        if hasGeneration { ReadAllocationMeter.reserve(n, of: UInt32.self) }
        reserve(n)
        for i in 0..<n {
            r.record = "\(name) \(i)"
            r.field = "isAlive"
            var v = R()
            v.isAlive = try r.bool()
            var generation: UInt32 = 0
            if hasGeneration { r.field = "generation"; generation = try r.u32() }
            if v.isAlive {
                r.resetFiniteCheck()
                do {
                    try v.readFields(from: &r)
                    if let bad = r.nonFiniteField { throw r.corrupt("a live record holds a non-finite number (\(bad))") }
                } catch {
                    cleanUp(v)
                    throw error
                }
            }
            append(v, generation)
        }
        r.field = ""
    }

    private mutating func read(_ r: inout ByteReader) throws {
        r.field = "magic"
        for m in SnapshotFormat.magic where try r.u8() != m { throw r.corrupt("not a world snapshot") }
        r.field = "version"
        guard Int(try r.u32()) == r.version else { throw r.corrupt("the version changed while reading") }
        r.record = "world"
        r.field = "gravity"; gravity = try .read(from: &r)
        r.field = "stepCount"; stepCount = try .read(from: &r)
        r.field = "cellSize"; cellSize = try r.f32()
        r.field = "cellSizeChosen"; cellSizeChosen = try r.bool()
        r.field = "cellSizeProxyCount"; cellSizeProxyCount = try .read(from: &r)
        guard gravity.isFinite, cellSize.isFinite, cellSize >= 0, stepCount >= 0, cellSizeProxyCount >= 0 else {
            throw r.corrupt("gravity, step count or cell size out of range")
        }

        var bodies: [Body] = [], shapes: [Shape] = [], contacts: [Contact] = [], joints: [Joint] = []
        var bodyGenerations: [UInt32] = [], shapeGenerations: [UInt32] = [], jointGenerations: [UInt32] = []
        try Self.slots("body", &r, hasGeneration: true, reserve: { bodies.reserveCapacity($0); bodyGenerations.reserveCapacity($0) },
                       append: { (b: Body, g) in bodies.append(b); bodyGenerations.append(g) })
        self.bodies = bodies
        self.bodyGenerations = bodyGenerations
        r.record = "free bodies"; freeBodies = try r.int32s()
        defer { self.shapes = shapes; self.shapeGenerations = shapeGenerations }   // so that a failure frees the polygons read so far
        try Self.slots("shape", &r, hasGeneration: true, reserve: { shapes.reserveCapacity($0); shapeGenerations.reserveCapacity($0) },
                       append: { (s: Shape, g) in shapes.append(s); shapeGenerations.append(g) },
                       cleanUp: { $0.polygon?.free() })
        r.record = "free shapes"; freeShapes = try r.int32s()
        try Self.slots("contact", &r, hasGeneration: false, reserve: { contacts.reserveCapacity($0) },
                       append: { (c: Contact, _) in contacts.append(c) })
        self.contacts = contacts
        r.record = "free contacts"; freeContacts = try r.int32s()
        try Self.slots("joint", &r, hasGeneration: true, reserve: { joints.reserveCapacity($0); jointGenerations.reserveCapacity($0) },
                       append: { (j: Joint, g) in joints.append(j); jointGenerations.append(g) })
        self.joints = joints
        self.jointGenerations = jointGenerations
        r.record = "free joints"; freeJoints = try r.int32s()
        r.record = "awake bodies"; awakeBodies = try r.int32s()
        r.record = "sleeping islands"
        let islands = try r.count(minimumSize: 4)
        ReadAllocationMeter.reserve(islands, of: [Int32].self)
        sleepIslands.reserveCapacity(islands)
        for _ in 0..<islands { sleepIslands.append(try r.int32s()) }
        r.record = "free sleeping islands"; freeSleepIslands = try r.int32s()
        r.record = "moved proxies"; movedProxies = try r.int32s()
        r.record = "end"
        try r.finish()
    }
}

extension World {
    /// Captures the world's complete state in the current format.
    package func snapshot() -> WorldSnapshot {
        refreshStaleBoxes()   // so that a snapshot holds every box as of its pose
        var w = ByteWriter(capacity: 64 + bodies.count * 160 + shapes.count * 120 + contacts.count * 200 + joints.count * 160)
        for m in SnapshotFormat.magic { w.u8(m) }
        w.u32(UInt32(SnapshotFormat.current))
        gravity.write(to: &w)
        stepCount.write(to: &w)
        w.f32(broadPhase.grid.cellSize)
        broadPhase.cellSizeChosen.write(to: &w)
        broadPhase.cellSizeProxyCount.write(to: &w)
        w.count(bodies.count)
        for (i, b) in bodies.enumerated() {
            b.isAlive.write(to: &w); w.u32(bodies.generations[i])
            if b.isAlive { b.writeFields(to: &w) }
        }
        w.int32s(bodies.freeList)
        w.count(shapes.count)
        for (i, s) in shapes.enumerated() {
            s.isAlive.write(to: &w); w.u32(shapes.generations[i])
            if s.isAlive { s.writeFields(to: &w) }
        }
        w.int32s(shapes.freeList)
        w.count(contacts.count)
        for c in contacts {
            c.isAlive.write(to: &w)
            if c.isAlive { c.writeFields(to: &w) }
        }
        w.int32s(contacts.freeList)
        w.count(joints.count)
        for (i, j) in joints.enumerated() {
            j.isAlive.write(to: &w); w.u32(joints.generations[i])
            if j.isAlive { j.writeFields(to: &w) }
        }
        w.int32s(joints.freeList)
        w.int32s(sets.awake)
        w.count(sets.sleepIslands.count)
        for island in sets.sleepIslands { w.int32s(island) }
        w.int32s(sets.freeSleepIslands)
        w.int32s(broadPhase.movedProxies)
        return WorldSnapshot(bytes: w.bytes)
    }

    /// Replaces the world's state with `snapshot`. Throws ``WorldSnapshotError`` (leaving the world
    /// unchanged) when the snapshot is of an unknown version, truncated, corrupt or inconsistent.
    package func restore(_ snap: WorldSnapshot) throws {
        if let problem = snap.headerProblem { throw WorldSnapshotError.corrupt(problem) }
        var r = ByteReader(bytes: snap.bytes, version: snap.formatVersion ?? 0)
        let d = try DecodedWorld(reading: &r)
        var committed = false
        defer { if !committed { d.freePolygons() } }

        // Consistency: every link the validation walk and the step follow must stay inside its
        // array, so that a tampered snapshot is refused here instead of trapping later.
        func inRange(_ xs: [Int32], _ n: Int) -> Bool { xs.allSatisfy { $0 >= 0 && Int($0) < n } }
        // -1 (none) or a valid index; an edge key (index << 1 | side) of a valid index.
        func optional(_ i: Int32, _ n: Int) -> Bool { i == -1 || (i >= 0 && Int(i) < n) }
        func edge(_ k: Int32, _ n: Int) -> Bool { k == -1 || (k >= 0 && Int(k >> 1) < n) }
        func index(_ i: Int32, _ n: Int) -> Bool { i >= 0 && Int(i) < n }
        let nb = d.bodies.count, ns = d.shapes.count, nc = d.contacts.count, nj = d.joints.count
        guard d.bodies.allSatisfy({ b in
                  !b.isAlive || (optional(b.awakeIndex, d.awakeBodies.count) && optional(b.sleepIsland, d.sleepIslands.count)
                                 && optional(b.headShape, ns) && edge(b.headContactKey, nc) && edge(b.headJointKey, nj)
                                 && b.shapeCount >= 0 && b.contactCount >= 0 && b.jointCount >= 0)
              }),
              d.shapes.allSatisfy({ s in
                  !s.isAlive || (optional(s.nextShape, ns) && index(s.body, nb)
                                 && (s.kind == .polygon) == (s.polygon != nil))
              }),
              d.contacts.allSatisfy({ c in
                  !c.isAlive || (index(c.shapeA, ns) && index(c.shapeB, ns) && c.shapeA != c.shapeB
                                 && index(c.bodyA, nb) && index(c.bodyB, nb)
                                 && edge(c.prevKey.side0, nc) && edge(c.prevKey.side1, nc)
                                 && edge(c.nextKey.side0, nc) && edge(c.nextKey.side1, nc))
              }),
              d.joints.allSatisfy({ j in
                  !j.isAlive || (index(j.bodyA, nb) && index(j.bodyB, nb)
                                 && edge(j.prevKey.side0, nj) && edge(j.prevKey.side1, nj)
                                 && edge(j.nextKey.side0, nj) && edge(j.nextKey.side1, nj))
              })
        else { throw WorldSnapshotError.corrupt("a link is out of range") }
        guard inRange(d.freeBodies, nb), inRange(d.awakeBodies, nb),
              inRange(d.freeShapes, ns), inRange(d.movedProxies, ns),
              inRange(d.freeContacts, nc), inRange(d.freeJoints, nj),
              d.sleepIslands.allSatisfy({ inRange($0, nb) }),
              inRange(d.freeSleepIslands, d.sleepIslands.count)
        else { throw WorldSnapshotError.corrupt("an index is out of range") }
        // A free list names each dead slot once, and only dead slots: creation pops them.
        func freeListIsExact(_ free: [Int32], _ alive: [Bool]) -> Bool {
            var seen = Array(repeating: false, count: alive.count)
            for f in free {
                if alive[Int(f)] || seen[Int(f)] { return false }
                seen[Int(f)] = true
            }
            return free.count == alive.filter { !$0 }.count
        }
        guard freeListIsExact(d.freeBodies, d.bodies.map(\.isAlive)), freeListIsExact(d.freeShapes, d.shapes.map(\.isAlive)),
              freeListIsExact(d.freeContacts, d.contacts.map(\.isAlive)), freeListIsExact(d.freeJoints, d.joints.map(\.isAlive))
        else { throw WorldSnapshotError.corrupt("a free list does not name exactly the free slots") }
        let keys = d.contacts.filter(\.isAlive).map { pairKey($0.shapeA, $0.shapeB) }.sorted()
        guard zip(keys, keys.dropFirst()).allSatisfy({ $0 < $1 }) else { throw WorldSnapshotError.corrupt("two contacts join the same shapes") }
        // Two touching contacts of one dynamic body in the same colour would be solved at once.
        if r.version >= 2 {
            let held = ConstraintColoring.heldColors(d.contacts, bodyCount: nb) { d.bodies[Int($0)].type == .dynamic }
            if let t = held.twice {
                throw WorldSnapshotError.corrupt("two touching contacts of body \(t.body) share a colour")
            }
        }

        // Commit.
        for s in shapes where s.isAlive { s.polygon?.free() }
        committed = true
        gravity = d.gravity
        bodies.replaceAll(elements: d.bodies, generations: d.bodyGenerations, free: d.freeBodies)
        shapes.replaceAll(elements: d.shapes, generations: d.shapeGenerations, free: d.freeShapes)
        hasStaleBoxes = false   // every box was saved as of its pose
        maxPolygonCount = max(8, shapes.reduce(0) { max($0, Int($1.polygon?.count ?? 0)) })
        // contact generations are not saved: contacts are never handed out by id
        contacts.replaceAll(elements: d.contacts, generations: Array(repeating: 0, count: d.contacts.count), free: d.freeContacts)
        contactKeys.reserve(contacts.count)   // the colouring below writes keys; all are copied after it
        for i in contacts.indices where contacts[i].isAlive { contacts[i].pairKey = pairKey(contacts[i].shapeA, contacts[i].shapeB) }
        joints.replaceAll(elements: d.joints, generations: d.jointGenerations, free: d.freeJoints)
        jointGraphChanged()
        sets.awake = d.awakeBodies
        sets.sleepIslands = d.sleepIslands
        sets.freeSleepIslands = d.freeSleepIslands
        broadPhase.movedProxies = d.movedProxies
        stepCount = d.stepCount
        broadPhase.pairs = PairTable(capacity: contacts.count)
        for (i, c) in contacts.enumerated() where c.isAlive {
            broadPhase.pairs.insert(c.pairKey, Int32(i), crowding: crowding(c.pairKey))
        }
        broadPhase.grid = UniformGrid()
        broadPhase.grid.setCellSize(d.cellSize)
        broadPhase.grid.staticDirty = true
        broadPhase.cellSizeChosen = d.cellSizeChosen
        broadPhase.cellSizeProxyCount = d.cellSizeProxyCount
        broadPhase.noteMovableShapesChanged()
        broadPhase.recountCategories(shapes: shapes)
        broadPhase.staticChanges.removeAll()
        broadPhase.segmentGhostsDirty = true
        broadPhase.segmentJoins = SegmentJoinIndex()
        rebuildContactColors(fresh: r.version < 2)
        rebuildContactKeys()
        beginEvents = []
        sets.moved = []
        moves.isCurrent = false
        endEvents = []
    }
}
