/// Everything that decides how a world continues, so a restored world steps bit for bit like the
/// original: every body, shape, contact (manifolds, warm-start impulses, recycling caches) and joint
/// (accumulated impulses) exactly as stored, the free lists (they decide which index a new object
/// gets), the awake order, the sleeping islands and the pending broad-phase work. Derived structures
/// (pair table, grid, proxy lists) are rebuilt, because nothing about their layout reaches the
/// results: every query that feeds the step is sorted or reduced with a minimum.
package struct WorldSnapshot: Codable, Sendable, Equatable {
    fileprivate var gravity: Vec2
    fileprivate var bodies: [BodyRecord]
    fileprivate var freeBodies: [Int32]
    fileprivate var shapes: [ShapeRecord]
    fileprivate var freeShapes: [Int32]
    fileprivate var contacts: [ContactRecord]
    fileprivate var freeContacts: [Int32]
    fileprivate var joints: [JointRecord]
    fileprivate var freeJoints: [Int32]
    fileprivate var awakeBodies: [Int32]
    fileprivate var sleepIslands: [[Int32]]
    fileprivate var freeSleepIslands: [Int32]
    fileprivate var movedProxies: [Int32]
    fileprivate var cellSize: Float
    fileprivate var cellSizeChosen: Bool
    fileprivate var cellSizeProxyCount: Int
    fileprivate var stepCount: Int
}

// Opaque wrappers keep the engine's internal structs internal while the snapshot is `package`.
private struct BodyRecord: Codable, Sendable, Equatable {
    var data: Data
}
private struct ShapeRecord: Codable, Sendable, Equatable { var data: Data }
private struct ContactRecord: Codable, Sendable, Equatable { var data: Data }
private struct JointRecord: Codable, Sendable, Equatable { var data: Data }

import Foundation

/// Bit-exact binary encoding of plain engine structs (property lists would round floats through
/// text); each record is the struct's own Codable encoding through a binary property list.
private enum RecordCoder {
    static func encode<T: Encodable>(_ value: T) -> Data {
        let e = PropertyListEncoder()
        e.outputFormat = .binary
        return (try? e.encode([value])) ?? Data()
    }
    static func decode<T: Decodable>(_ type: T.Type, _ data: Data) throws -> T {
        guard let v = try PropertyListDecoder().decode([T].self, from: data).first else {
            throw WorldSnapshotError.corrupt("empty record")
        }
        return v
    }
}

extension WorldSnapshot {
    /// FNV-1a over every field, bit for bit: a checksum that the layer above stores next to the
    /// snapshot so that an archive altered after it was written is refused.
    package var contentHash: UInt64 {
        var h = FNV1a()
        func word(_ v: UInt64) { h.add(bits: v) }
        func ints(_ xs: [Int32]) { word(UInt64(xs.count)); for x in xs { word(UInt64(UInt32(bitPattern: x))) } }
        func data(_ records: [Data]) { word(UInt64(records.count)); for d in records { word(UInt64(d.count)); for b in d { h.add(b) } } }
        word(UInt64(gravity.x.bitPattern)); word(UInt64(gravity.y.bitPattern))
        data(bodies.map(\.data)); ints(freeBodies)
        data(shapes.map(\.data)); ints(freeShapes)
        data(contacts.map(\.data)); ints(freeContacts)
        data(joints.map(\.data)); ints(freeJoints)
        ints(awakeBodies)
        word(UInt64(sleepIslands.count)); for island in sleepIslands { ints(island) }
        ints(freeSleepIslands); ints(movedProxies)
        word(UInt64(cellSize.bitPattern)); word(cellSizeChosen ? 1 : 0)
        word(UInt64(bitPattern: Int64(cellSizeProxyCount))); word(UInt64(bitPattern: Int64(stepCount)))
        return h.value
    }
}

extension WorldSnapshot {
    /// The names of the fields that differ from `other` (for test failure messages).
    package func differences(from other: WorldSnapshot) -> [String] {
        var d: [String] = []
        if gravity != other.gravity { d.append("gravity") }
        if bodies != other.bodies {
            let a = (try? RecordCoder.decode([Body].self, bodies.first?.data ?? Data())) ?? []
            let b = (try? RecordCoder.decode([Body].self, other.bodies.first?.data ?? Data())) ?? []
            let diff = zip(a, b).enumerated().filter { RecordCoder.encode($0.element.0) != RecordCoder.encode($0.element.1) }.map(\.offset)
            d.append("bodies \(diff.prefix(5)) of \(a.count)/\(b.count): \(diff.first.map { "\(a[$0]) vs \(b[$0])" } ?? "")")
        }
        if freeBodies != other.freeBodies { d.append("freeBodies") }
        if shapes != other.shapes {
            let a = (try? RecordCoder.decode([ShapeCodable].self, shapes.first?.data ?? Data())) ?? []
            let b = (try? RecordCoder.decode([ShapeCodable].self, other.shapes.first?.data ?? Data())) ?? []
            let diff = zip(a, b).enumerated().filter { RecordCoder.encode($0.element.0) != RecordCoder.encode($0.element.1) }.map(\.offset)
            d.append("shapes \(diff.prefix(5)) of \(a.count)/\(b.count): \(diff.first.map { "\(a[$0]) vs \(b[$0])" } ?? "")")
        }
        if freeShapes != other.freeShapes { d.append("freeShapes") }
        if contacts != other.contacts {
            let a = (try? RecordCoder.decode([Contact].self, contacts.first?.data ?? Data())) ?? []
            let b = (try? RecordCoder.decode([Contact].self, other.contacts.first?.data ?? Data())) ?? []
            let diff = zip(a, b).enumerated().filter { RecordCoder.encode($0.element.0) != RecordCoder.encode($0.element.1) }.map(\.offset)
            d.append("contacts \(diff.prefix(5)) of \(a.count)/\(b.count): \(diff.first.map { "\(a[$0]) vs \(b[$0])" } ?? "\(a)")")
        }
        if freeContacts != other.freeContacts { d.append("freeContacts") }
        if joints != other.joints { d.append("joints") }
        if freeJoints != other.freeJoints { d.append("freeJoints") }
        if awakeBodies != other.awakeBodies { d.append("awakeBodies") }
        if sleepIslands != other.sleepIslands { d.append("sleepIslands") }
        if freeSleepIslands != other.freeSleepIslands { d.append("freeSleepIslands") }
        if movedProxies != other.movedProxies { d.append("movedProxies") }
        if cellSize != other.cellSize || cellSizeChosen != other.cellSizeChosen || cellSizeProxyCount != other.cellSizeProxyCount { d.append("cell size") }
        if stepCount != other.stepCount { d.append("stepCount") }
        return d
    }
}

package enum WorldSnapshotError: Error, CustomStringConvertible {
    case corrupt(String)
    package var description: String {
        switch self { case .corrupt(let why): return "world snapshot is corrupt: \(why)" }
    }
}

/// A shape with its polygon as plain points.
private struct ShapeCodable: Codable, CustomStringConvertible {
    var description: String { "shape(kind \(kind), body \(body), gen \(generation), alive \(isAlive), next \(nextShape), polygon \(polygon?.count ?? -1), aabb \(aabb), fat \(fatAABB), static \(isStaticProxy), enlarged \(enlarged))" }
    var kind: ShapeKind
    var body: Int32
    var generation: UInt32
    var isAlive: Bool
    var nextShape: Int32
    var p1: Vec2, p2: Vec2, radius: Float
    var polygon: [Vec2]?
    var density: Float, friction: Float, restitution: Float
    var filter: Filter
    var enableContactEvents: Bool
    var usesOtherMaterial: Bool
    var userData: Int
    var aabb: AABB, fatAABB: AABB
    var isStaticProxy: Bool
    var enlarged: Bool

    init(_ s: Shape) {
        kind = s.kind; body = s.body; generation = s.generation; isAlive = s.isAlive; nextShape = s.nextShape
        p1 = s.p1; p2 = s.p2; radius = s.radius
        polygon = s.polygon.map { p in (0..<Int(p.count)).map { p.vertices[$0] } }
        density = s.density; friction = s.friction; restitution = s.restitution
        filter = s.filter; enableContactEvents = s.enableContactEvents; usesOtherMaterial = s.usesOtherMaterial
        userData = s.userData; aabb = s.aabb; fatAABB = s.fatAABB; isStaticProxy = s.isStaticProxy; enlarged = s.enlarged
    }

    func shape() -> Shape {
        var s = Shape()
        s.kind = kind; s.body = body; s.generation = generation; s.isAlive = isAlive; s.nextShape = nextShape
        s.p1 = p1; s.p2 = p2; s.radius = radius
        if let pts = polygon, pts.count >= 3, isAlive { s.polygon = PolygonStore(points: pts) }
        s.density = density; s.friction = friction; s.restitution = restitution
        s.filter = filter; s.enableContactEvents = enableContactEvents; s.usesOtherMaterial = usesOtherMaterial
        s.userData = userData; s.aabb = aabb; s.fatAABB = fatAABB; s.isStaticProxy = isStaticProxy; s.enlarged = enlarged
        return s
    }
}

extension World {
    /// Captures the world's complete state.
    package func snapshot() -> WorldSnapshot {
        WorldSnapshot(
            gravity: gravity,
            bodies: [BodyRecord(data: RecordCoder.encode(bodies))],
            freeBodies: freeBodies,
            shapes: [ShapeRecord(data: RecordCoder.encode(shapes.map(ShapeCodable.init)))],
            freeShapes: freeShapes,
            contacts: [ContactRecord(data: RecordCoder.encode(contacts))],
            freeContacts: freeContacts,
            joints: [JointRecord(data: RecordCoder.encode(joints))],
            freeJoints: freeJoints,
            awakeBodies: awakeBodies,
            sleepIslands: sleepIslands,
            freeSleepIslands: freeSleepIslands,
            movedProxies: movedProxies,
            cellSize: grid.cellSize,
            cellSizeChosen: cellSizeChosen,
            cellSizeProxyCount: cellSizeProxyCount,
            stepCount: stepCount)
    }

    /// Replaces the world's state with `snapshot`. Throws (leaving the world unchanged) when the
    /// snapshot is corrupt or inconsistent.
    package func restore(_ snap: WorldSnapshot) throws {
        let newBodies = try RecordCoder.decode([Body].self, snap.bodies.first?.data ?? Data())
        let shapeRecords = try RecordCoder.decode([ShapeCodable].self, snap.shapes.first?.data ?? Data())
        let newContacts = try RecordCoder.decode([Contact].self, snap.contacts.first?.data ?? Data())
        let newJoints = try RecordCoder.decode([Joint].self, snap.joints.first?.data ?? Data())
        // consistency: every index in range
        func inRange(_ xs: [Int32], _ n: Int) -> Bool { xs.allSatisfy { $0 >= 0 && Int($0) < n } }
        // -1 (none) or a valid index; an edge key (index << 1 | side) of a valid index.
        func optional(_ i: Int32, _ n: Int) -> Bool { i == -1 || (i >= 0 && Int(i) < n) }
        func edge(_ k: Int32, _ n: Int) -> Bool { k == -1 || (k >= 0 && Int(k >> 1) < n) }
        // Every link the validation walk and the step follow must stay inside its array, so that a
        // tampered snapshot is refused here instead of trapping later.
        guard newBodies.allSatisfy({ b in
                  !b.isAlive || (optional(b.awakeIndex, snap.awakeBodies.count) && optional(b.sleepIsland, snap.sleepIslands.count)
                                 && optional(b.headShape, shapeRecords.count) && edge(b.headContactKey, newContacts.count)
                                 && edge(b.headJointKey, newJoints.count) && b.shapeCount >= 0 && b.contactCount >= 0
                                 && b.jointCount >= 0)
              }),
              shapeRecords.allSatisfy({ !$0.isAlive || optional($0.nextShape, shapeRecords.count) }),
              newContacts.allSatisfy({ c in
                  !c.isAlive || (c.shapeA >= 0 && c.shapeB >= 0 && c.bodyA >= 0 && c.bodyB >= 0
                                 && edge(c.prevKey.side0, newContacts.count) && edge(c.prevKey.side1, newContacts.count)
                                 && edge(c.nextKey.side0, newContacts.count) && edge(c.nextKey.side1, newContacts.count))
              }),
              newJoints.allSatisfy({ j in
                  !j.isAlive || (j.bodyA >= 0 && j.bodyB >= 0
                                 && edge(j.prevKey.side0, newJoints.count) && edge(j.prevKey.side1, newJoints.count)
                                 && edge(j.nextKey.side0, newJoints.count) && edge(j.nextKey.side1, newJoints.count))
              }),
              shapeRecords.allSatisfy({ !$0.isAlive || $0.kind != .polygon || ($0.polygon?.count ?? 0) >= 3 })
        else { throw WorldSnapshotError.corrupt("a link is out of range") }
        guard inRange(snap.freeBodies, newBodies.count), inRange(snap.awakeBodies, newBodies.count),
              inRange(snap.freeShapes, shapeRecords.count), inRange(snap.movedProxies, shapeRecords.count),
              inRange(snap.freeContacts, newContacts.count), inRange(snap.freeJoints, newJoints.count),
              snap.sleepIslands.allSatisfy({ inRange($0, newBodies.count) }),
              inRange(snap.freeSleepIslands, snap.sleepIslands.count),
              newContacts.allSatisfy({ !$0.isAlive || (Int($0.shapeA) < shapeRecords.count && Int($0.shapeB) < shapeRecords.count
                                                       && Int($0.bodyA) < newBodies.count && Int($0.bodyB) < newBodies.count) }),
              newJoints.allSatisfy({ !$0.isAlive || (Int($0.bodyA) < newBodies.count && Int($0.bodyB) < newBodies.count) }),
              shapeRecords.allSatisfy({ !$0.isAlive || ($0.body >= 0 && Int($0.body) < newBodies.count) })
        else { throw WorldSnapshotError.corrupt("an index is out of range") }

        for s in shapes where s.isAlive { s.polygon?.free() }
        gravity = snap.gravity
        bodies = newBodies
        freeBodies = snap.freeBodies
        shapes = shapeRecords.map { $0.shape() }
        maxPolygonCount = max(8, shapes.reduce(0) { max($0, Int($1.polygon?.count ?? 0)) })
        freeShapes = snap.freeShapes
        contacts = newContacts
        freeContacts = snap.freeContacts
        joints = newJoints
        freeJoints = snap.freeJoints
        awakeBodies = snap.awakeBodies
        sleepIslands = snap.sleepIslands
        freeSleepIslands = snap.freeSleepIslands
        movedProxies = snap.movedProxies
        stepCount = snap.stepCount
        pairs = PairTable(capacity: contacts.count)
        for (i, c) in contacts.enumerated() where c.isAlive { pairs.insert(c.pairKey, Int32(i)) }
        grid = UniformGrid()
        grid.setCellSize(snap.cellSize)
        grid.staticDirty = true
        cellSizeChosen = snap.cellSizeChosen
        cellSizeProxyCount = snap.cellSizeProxyCount
        proxyListDirty = true
        beginEvents = []
        endEvents = []
    }
}
