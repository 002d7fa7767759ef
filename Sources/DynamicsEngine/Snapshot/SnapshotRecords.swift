// What a world snapshot saves of each engine struct, field by field: THE place to change when an
// engine struct gains or loses a stored property.
//
// - A new property that carries state from one step to the next: append a `.field(…, since: N)`
//   entry (N = the next format version) and bump `SnapshotFormat.current`. Snapshots of older
//   versions keep the property's default from `init()`.
// - A new property that is scratch of one step, derived on restore, or write-only: list it in
//   `notSaved` with the reason.
// - A removed property: turn its entry into `.retired(name, Type.self, until: N)` and bump
//   `SnapshotFormat.current`, so older snapshots still parse.
// - Entries are written in table order; the order is part of the format: never reorder.
//
// `SnapshotFormatTests.everyStoredPropertyIsCovered` fails when a struct's stored properties and
// its table disagree. Goldens (Tests/DynamicsTests/Reliability/Golden) prove old snapshots still
// continue bit for bit.

/// A live body (a free slot is saved as its generation only, by `World.snapshot()`).
extension Body: SnapshotRecord {
    static let snapshotFields: [SnapshotField<Body>] = [
        .field("type", \.type),
        .field("userData", \.userData),
        .field("fixedRotation", \.fixedRotation),
        .field("enableSleep", \.enableSleep),
        // links
        .field("awakeIndex", \.awakeIndex),
        .field("sleepIsland", \.sleepIsland),
        .field("headShape", \.headShape),
        .field("shapeCount", \.shapeCount),
        .field("headContactKey", \.headContactKey),
        .field("contactCount", \.contactCount),
        .field("headJointKey", \.headJointKey),
        .field("jointCount", \.jointCount),
        // pose and motion
        .field("transform", \.transform),
        .field("center", \.center),
        .field("center0", \.center0),
        .field("rotation0", \.rotation0),
        .field("localCenter", \.localCenter),
        .field("linearVelocity", \.linearVelocity),
        .field("angularVelocity", \.angularVelocity),
        .field("force", \.force),
        .field("torque", \.torque),
        .field("isFast", \.isFast),
        // mass (saved, not recomputed: a recomputation need not give the same bits)
        .field("mass", \.mass),
        .field("invMass", \.invMass),
        .field("inertia", \.inertia),
        .field("invInertia", \.invInertia),
        .field("maxExtent", \.maxExtent),
        .field("minExtent", \.minExtent),
        // damping, gravity, sleep
        .field("linearDamping", \.linearDamping),
        .field("angularDamping", \.angularDamping),
        .field("gravityScale", \.gravityScale),
        .field("sleepTime", \.sleepTime),
    ]
    static let notSaved: KeyValuePairs<String, String> = [
        "isAlive": "the slot header (World+Snapshot)",
        "contactColors": "derived: the colours of the body's touching contacts, rebuilt on restore",
    ]
}

/// A live shape (a free slot is saved as its generation only).
extension Shape: SnapshotRecord {
    static let snapshotFields: [SnapshotField<Shape>] = [
        .field("body", \.body),
        .field("nextShape", \.nextShape),
        .field("kind", \.kind),
        .field("p1", \.p1),
        .field("p2", \.p2),
        .field("radius", \.radius),
        // The polygon's vertices (a count, then x, y each); its normals and centroid are derived
        // from them on restore exactly as on creation. Count 0: no polygon.
        .custom("polygon", write: { s, w in
            guard let p = s.polygon else { w.count(0); return }
            w.count(Int(p.count))
            for i in 0..<Int(p.count) { p.vertices[i].write(to: &w) }
        }, read: { s, r in
            let n = try r.count(minimumSize: 8)
            guard n > 0 else { s.polygon = nil; return }
            guard n >= 3 else { throw r.corrupt("a polygon of \(n) vertices") }
            var points: [Vec2] = []
            points.reserveCapacity(n)
            for _ in 0..<n { points.append(try Vec2.read(from: &r)) }
            guard points.allSatisfy(\.isFinite) else { throw r.corrupt("a polygon vertex is not finite") }
            s.polygon = PolygonStore(points: points)   // freed by the reader if the restore fails
        }),
        .field("density", \.density),
        .field("friction", \.friction),
        .field("restitution", \.restitution),
        .field("filter", \.filter),
        .field("enableContactEvents", \.enableContactEvents),
        .field("usesOtherMaterial", \.usesOtherMaterial),
        .field("userData", \.userData),
        .field("aabb", \.aabb),
        .field("fatAABB", \.fatAABB),
        .field("isStaticProxy", \.isStaticProxy),
        .field("enlarged", \.enlarged),
    ]
    static let notSaved: KeyValuePairs<String, String> = [
        "isAlive": "the slot header (World+Snapshot)",
    ]
}

/// A live contact (a free slot is saved as a flag only: a new contact overwrites the whole slot).
extension Contact: SnapshotRecord {
    static let snapshotFields: [SnapshotField<Contact>] = [
        .field("shapeA", \.shapeA),
        .field("shapeB", \.shapeB),
        .field("bodyA", \.bodyA),
        .field("bodyB", \.bodyB),
        .field("friction", \.friction),
        .field("restitution", \.restitution),
        .field("isTouching", \.isTouching),
        .field("enableContactEvents", \.enableContactEvents),
        .field("prevKey", \.prevKey),
        .field("nextKey", \.nextKey),
        .record("manifold", \.manifold),
        .field("cacheValid", \.cacheValid),
        .field("cachedRotationA", \.cachedRotationA),
        .field("cachedRotationB", \.cachedRotationB),
        .field("cachedRelative", \.cachedRelative),
        // version 1 kept no colours: its touching contacts are coloured afresh on restore
        .custom("color", since: 2, write: { c, w in w.u8(c.color) }, read: { c, r in
            let color = try r.u8()
            if Int(color) >= ConstraintColoring.colorCount { throw r.corrupt("a contact of colour \(color)") }
            c.color = color
        }),
    ]
    static let notSaved: KeyValuePairs<String, String> = [
        "isAlive": "the slot header (World+Snapshot)",
        "pairKey": "derived: pairKey(shapeA, shapeB), recomputed on restore",
    ]
}

/// A manifold: the normal and the points in use (points past `pointCount` are stale and unread,
/// but for a pointless manifold's margin).
extension Manifold: SnapshotRecord {
    static let snapshotFields: [SnapshotField<Manifold>] = [
        .field("normal", \.normal),
        .custom("pointCount", write: { m, w in w.u8(UInt8(clamping: m.pointCount)) }, read: { m, r in
            let n = try r.u8()
            guard n <= 2 else { throw r.corrupt("a manifold of \(n) points") }
            m.pointCount = Int32(n)
        }),
        // A manifold with no point keeps, in p0.separation, how far past the speculative distance
        // it was computed, which bounds how long the narrow phase may keep it (version 3); an
        // older snapshot's such manifold reads 0 and is recomputed in the next step.
        .custom("p0", write: { m, w in
            if m.pointCount > 0 { m.p0.writeFields(to: &w) } else { w.f32(m.p0.separation) }
        }, read: { m, r in
            if m.pointCount > 0 {
                try m.p0.readFields(from: &r, prefix: "manifold.p0.")
            } else if r.version >= 3 {
                m.p0.separation = try r.f32()
            }
        }),
        .custom("p1", write: { m, w in if m.pointCount > 1 { m.p1.writeFields(to: &w) } },
                read: { m, r in if m.pointCount > 1 { try m.p1.readFields(from: &r, prefix: "manifold.p1.") } }),
    ]
    static let notSaved: KeyValuePairs<String, String> = [:]
}

/// A manifold point: warm-start impulses and the feature id they are matched by.
extension ManifoldPoint: SnapshotRecord {
    static let snapshotFields: [SnapshotField<ManifoldPoint>] = [
        .field("id", \.id),
        .field("point", \.point),
        .field("anchorA", \.anchorA),
        .field("anchorB", \.anchorB),
        .field("separation", \.separation),
        .field("baseSeparation", \.baseSeparation),
        .field("normalImpulse", \.normalImpulse),
        .field("tangentImpulse", \.tangentImpulse),
        .field("maxNormalImpulse", \.maxNormalImpulse),
    ]
    static let notSaved: KeyValuePairs<String, String> = [:]
}

/// A live joint (a free slot is saved as its generation only).
extension Joint: SnapshotRecord {
    static let snapshotFields: [SnapshotField<Joint>] = [
        .field("bodyA", \.bodyA),
        .field("bodyB", \.bodyB),
        .field("prevKey", \.prevKey),
        .field("nextKey", \.nextKey),
        .record("def", \.def),
        .record("impulses", \.impulses),
    ]
    static let notSaved: KeyValuePairs<String, String> = [
        "isAlive": "the slot header (World+Snapshot)",
    ]
}

extension JointDef: SnapshotRecord {
    init() { self.init(kind: .distance) }
    static let snapshotFields: [SnapshotField<JointDef>] = [
        .field("kind", \.kind),
        .field("bodyA", \.bodyA),
        .field("bodyB", \.bodyB),
        .field("localAnchorA", \.localAnchorA),
        .field("localAnchorB", \.localAnchorB),
        .field("collideConnected", \.collideConnected),
        .field("referenceAngle", \.referenceAngle),
        .field("localAxisA", \.localAxisA),
        .field("target", \.target),
        .field("enableSpring", \.enableSpring),
        .field("enableLimit", \.enableLimit),
        .field("enableMotor", \.enableMotor),
        .field("length", \.length),
        .field("minLength", \.minLength),
        .field("maxLength", \.maxLength),
        .field("hertz", \.hertz),
        .field("dampingRatio", \.dampingRatio),
        .field("motorSpeed", \.motorSpeed),
        .field("maxMotorTorque", \.maxMotorTorque),
        .field("lowerAngle", \.lowerAngle),
        .field("upperAngle", \.upperAngle),
        .field("lowerTranslation", \.lowerTranslation),
        .field("upperTranslation", \.upperTranslation),
        .field("linearHertz", \.linearHertz),
        .field("angularHertz", \.angularHertz),
        .field("linearDampingRatio", \.linearDampingRatio),
        .field("angularDampingRatio", \.angularDampingRatio),
        .field("maxForce", \.maxForce),
    ]
    static let notSaved: KeyValuePairs<String, String> = [:]
}

/// A joint's accumulated impulses (its warm start).
extension JointImpulses: SnapshotRecord {
    static let snapshotFields: [SnapshotField<JointImpulses>] = [
        .field("linear", \.linear),
        .field("angular", \.angular),
        .field("axial", \.axial),
        .field("lower", \.lower),
        .field("upper", \.upper),
        .field("motor", \.motor),
        .field("spring", \.spring),
    ]
    static let notSaved: KeyValuePairs<String, String> = [:]
}

extension World {
    /// The world's stored properties that a snapshot saves (in `World+Snapshot.swift`), and those
    /// it does not, with the reason. `SnapshotFormatTests` checks this list against the class.
    /// Its parts list their own stored properties (`BroadPhase`, `BodySets`, `SolverScratch`).
    static let snapshotCoverage: KeyValuePairs<String, String> = [
        "gravity": "saved",
        "bodies": "saved: each slot (live flag, generation, record), then the free list",
        "shapes": "saved: each slot (live flag, generation, record), then the free list",
        "contacts": "saved: each slot (live flag, record), then the free list; contacts have no ids, so no generations",
        "joints": "saved: each slot (live flag, generation, record), then the free list",
        "contactKeys": "derived: copied from the contacts and their bodies on restore",
        "sets": "a part: see BodySets.snapshotCoverage",
        "broadPhase": "a part: see BroadPhase.snapshotCoverage",
        "scratch": "a part: see SolverScratch.snapshotCoverage",
        "stepCount": "saved",
        "hasStaleBoxes": "false after every capture and restore: the capture brings the boxes up to date",
        "def": "configuration: a snapshot is restored into a world made with the same definition",
        "linearSlop": "derived from def", "speculativeDistance": "derived from def", "aabbMargin": "derived from def",
        "maxPushSpeed": "derived from def", "restitutionThreshold": "derived from def", "maxLinearSpeed": "derived from def",
        "sleepThreshold": "derived from def", "massPerAreaScale": "derived from def",
        "moves": "the last step's output, marked stale on restore; recording it is a switch of the world's holder",
        "beginEvents": "the last step's events: cleared on restore", "endEvents": "the last step's events: cleared on restore",
        "validationErrors": "diagnostics of the last step",
        "lastColorCounts": "statistics of the last step",
        "jointGraph": "derived: the joints' colours, chosen afresh on the first step after a restore (the same ones)",
        "maxPolygonCount": "derived from the shapes",
        "pool": "threads (def.workerCount)",
        "isProfiling": "a measuring switch of whoever holds the world, not physics",
        "profile": "timings of the last step",
    ]
}

extension SnapshotFormat {
    /// Every disagreement between the engine structs' stored properties and the snapshot format's
    /// tables (empty when the format covers everything): for the test that keeps them in step.
    package static func coverageProblems() -> [String] {
        var problems = Body.coverageProblems() + Shape.coverageProblems() + Contact.coverageProblems()
            + Manifold.coverageProblems() + ManifoldPoint.coverageProblems() + Joint.coverageProblems()
            + JointDef.coverageProblems() + JointImpulses.coverageProblems()
        // The world and each of its parts, against the part's own list.
        let world = World()
        let parts: [(String, Any, KeyValuePairs<String, String>)] = [
            ("World", world, World.snapshotCoverage),
            ("BroadPhase", world.broadPhase, BroadPhase.snapshotCoverage),
            ("BodySets", world.sets, BodySets.snapshotCoverage),
            ("SolverScratch", world.scratch, SolverScratch.snapshotCoverage),
        ]
        for (type, value, coverage) in parts {
            let stored = Mirror(reflecting: value).children.compactMap(\.label)
            let listed = coverage.map(\.key)
            for name in stored where !listed.contains(name) {
                problems.append("\(type).\(name) is a stored property that the snapshot neither saves nor lists: save it in World.snapshot()/restore(_:) (Sources/DynamicsEngine/Snapshot/World+Snapshot.swift) or list it in \(type).snapshotCoverage with the reason it need not be saved.")
            }
            for name in listed where !stored.contains(name) {
                problems.append("\(type).snapshotCoverage lists \(name), which is no longer a stored property of \(type).")
            }
        }
        // Value types with a fixed encoding: a new member would be silently dropped.
        let values: [(String, [String], [String])] = [
            ("Vec2", Mirror(reflecting: Vec2.zero).children.compactMap(\.label), ["x", "y"]),
            ("Rot", Mirror(reflecting: Rot.identity).children.compactMap(\.label), ["c", "s"]),
            ("Transform", Mirror(reflecting: Transform.identity).children.compactMap(\.label), ["p", "q"]),
            ("AABB", Mirror(reflecting: AABB(lower: .zero, upper: .zero)).children.compactMap(\.label), ["lower", "upper"]),
            ("Filter", Mirror(reflecting: Filter()).children.compactMap(\.label), ["categoryBits", "maskBits", "groupIndex"]),
            ("BodyID", Mirror(reflecting: BodyID.null).children.compactMap(\.label), ["index", "generation"]),
            ("EdgeLinks", Mirror(reflecting: EdgeLinks()).children.compactMap(\.label), ["side0", "side1"]),
        ]
        for (name, stored, encoded) in values where stored != encoded {
            problems.append("\(name)'s stored properties are \(stored) but its snapshot encoding (SnapshotFormat.swift) writes \(encoded): update the encoding and bump SnapshotFormat.current.")
        }
        return problems
    }
}
