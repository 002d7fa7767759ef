// Where a shape is born and dies: its geometry checked, its boxes, its place in its body's shape
// list and the grid, and the body's mass recomputed.

extension World {
    // MARK: Shapes

    package func isValid(_ id: ShapeID) -> Bool { shapes.isValid(id.index, generation: id.generation) }

    /// Creates a shape; returns nil (and changes nothing) for degenerate or non-finite geometry.
    @discardableResult
    package func createShape(on body: BodyID, _ d: ShapeDef, _ geometry: ShapeGeometry) -> ShapeID? {
        guard isValid(body) else { return nil }
        var s = Shape()
        switch geometry {
        case let .circle(center, radius):
            guard center.isFinite, radius.isFinite, radius > 0 else { return nil }
            s.kind = .circle; s.p1 = center; s.radius = radius
        case let .segment(a, b):
            guard a.isFinite, b.isFinite, distanceSquared(a, b) > linearSlop * linearSlop else { return nil }
            s.kind = .segment; s.p1 = a; s.p2 = b
        case let .box(hw, hh, center, angle):
            guard hw.isFinite, hh.isFinite, hw > 0, hh > 0, center.isFinite, angle.isFinite else { return nil }
            let xf = Transform(p: center, q: Rot(angle: angle))
            let pts = [Vec2(-hw, -hh), Vec2(hw, -hh), Vec2(hw, hh), Vec2(-hw, hh)].map { xf.apply($0) }
            s.kind = .polygon; s.polygon = PolygonStore(points: pts)
        case let .polygon(points):
            let hull = convexHull(points, weldTolerance: 0.5 * linearSlop)
            guard hull.count >= 3 else { return nil }
            s.kind = .polygon; s.polygon = PolygonStore(points: hull)
            maxPolygonCount = max(maxPolygonCount, hull.count)
        }
        let dens = d.density.isFinite ? max(0, d.density) : 1
        s.density = dens
        s.friction = d.friction.isFinite ? max(0, d.friction) : 0.6
        s.restitution = d.restitution.isFinite ? max(0, d.restitution) : 0
        s.filter = d.filter
        s.enableContactEvents = d.enableContactEvents
        s.usesOtherMaterial = d.usesOtherMaterial
        s.userData = d.userData
        s.body = body.index
        let bi = Int(body.index)
        s.isStaticProxy = bodies[bi].type == .static
        s.aabb = s.computeAABB(bodies[bi].transform)
        s.fatAABB = s.isStaticProxy ? s.aabb : fatBox(for: s.aabb)
        s.enlarged = true
        s.nextShape = bodies[bi].headShape
        let index = shapes.insert(s)
        bodies[bi].headShape = index
        bodies[bi].shapeCount += 1
        broadPhase.movedProxies.append(index)
        let inUseBefore = broadPhase.categoriesInUse
        broadPhase.countCategories(of: s.filter, 1)
        settleShapesJoining(after: inUseBefore)   // its category may bring others into the pair search
        if s.isStaticProxy { noteStaticChange(index) } else { broadPhase.noteMovableShapesChanged() }
        if bodies[bi].type != .dynamic && bodies[bi].shapeCount > 1 {
            // A static or kinematic body has no mass to recompute, only its reach: one more shape
            // widens it or not. A full pass per shape made a boundary of n segments cost O(n²)
            // (64 000 segments: seconds).
            bodies[bi].maxExtent = max(bodies[bi].maxExtent, shapes[Int(index)].extent(from: .zero))
        } else {
            updateMass(bi)
        }
        return shapeID(index)
    }

    package func destroyShape(_ id: ShapeID) {
        guard isValid(id) else { return }
        let si = id.index
        let bi = Int(shapes[Int(si)].body)
        wake(bodyIndex: Int32(bi))
        // contacts of this shape
        var ck = bodies[bi].headContactKey
        while ck >= 0 {
            let c = ck >> 1
            let next = contacts[Int(c)].nextKey.get(Int(ck & 1))
            if contacts[Int(c)].shapeA == si || contacts[Int(c)].shapeB == si { destroyContact(c, reportEnd: true) }
            ck = next
        }
        // unlink from the body
        var prev: Int32 = -1
        var s = bodies[bi].headShape
        while s >= 0 {
            if s == si {
                if prev < 0 { bodies[bi].headShape = shapes[Int(s)].nextShape } else { shapes[Int(prev)].nextShape = shapes[Int(s)].nextShape }
                break
            }
            prev = s
            s = shapes[Int(s)].nextShape
        }
        bodies[bi].shapeCount -= 1
        freeShape(si)
        updateMass(bi)
    }

    func freeShape(_ si: Int32) {
        let wasStatic = shapes[Int(si)].isStaticProxy
        broadPhase.countCategories(of: shapes[Int(si)].filter, -1)
        shapes[Int(si)].polygon?.free()
        shapes[Int(si)].polygon = nil
        shapes.remove(si)
        if wasStatic { noteStaticChange(si) } else { broadPhase.noteMovableShapesChanged() }
    }

    /// Static shape `s` was made, destroyed, moved, or changed what it collides with: queued for
    /// the grid's static layer, the segment joins and the query grid, which each take it out and
    /// put it back as it is now. So one boundary replaced among n costs its own cells, not n.
    /// A queue grown past the shapes (changes without steps) is dropped for a rebuild instead.
    func noteStaticChange(_ s: Int32) {
        broadPhase.noteStaticChange(s, shapeSlots: shapes.count)
        noteStaticChangeForQueries(s)
    }

    func margin(for box: AABB) -> Float { World.margin(for: box, limit: aabbMargin) }

    /// A moving shape's fat box for its box: the box grown by the speculative distance, then by
    /// the margin. Box2D v3's rule: a pair within the speculative distance must have its fat boxes
    /// overlapping, else it has no contact and no speculative point at the step's start; a box
    /// 0.55 pt from a wall, still inside a fat box that stopped short of the wall, went 1.4 pt in.
    @inline(__always)
    static func fatBox(for box: AABB, speculative: Float, limit: Float) -> AABB {
        box.inflated(by: speculative + margin(for: box, limit: limit))
    }

    /// Whether a moving shape's fat box still holds its box grown by the speculative distance
    /// (else it is grown again from the box and searched for pairs).
    @inline(__always)
    static func fatBox(_ fat: AABB, covers box: AABB, speculative: Float) -> Bool {
        fat.contains(box.inflated(by: speculative))
    }

    func fatBox(for box: AABB) -> AABB { World.fatBox(for: box, speculative: speculativeDistance, limit: aabbMargin) }

    /// How far a fat box reaches past its box: an eighth of the radius of a square on the box's
    /// larger side (its side over √2), at most `limit` (`World.aabbMargin`: 5 cm, 5 pt at the
    /// default 100 pt a metre). Box2D v3's margin (an eighth of the shape's radius, at most 5 cm)
    /// from the box alone. √2 times as wide (an eighth of the side, at most 10 cm), it kept more
    /// pairs than it saved searches: with this one, one thread, 4 interleaved rounds, washer took
    /// 0.95× the time, junkyard 0.96×, tumbler 0.96×, ui_rain 0.99×.
    static func margin(for box: AABB, limit: Float) -> Float {
        min(limit, 0.0884 * max(box.width, box.height))
    }

    /// Recomputes mass, centre of mass and inertia from the shapes (uniform density per shape).
    func updateMass(_ bi: Int) {
        var b = bodies[bi]
        b.mass = 0; b.invMass = 0; b.inertia = 0; b.invInertia = 0
        b.localCenter = .zero
        b.minExtent = .greatestFiniteMagnitude
        b.maxExtent = 0
        if b.type != .dynamic {
            b.center = b.transform.p
            b.minExtent = 0
            var s = b.headShape
            while s >= 0 { b.maxExtent = max(b.maxExtent, shapes[Int(s)].extent(from: .zero)); s = shapes[Int(s)].nextShape }
            bodies[bi] = b
            return
        }
        var mass: Float = 0, rot: Float = 0, lc = Vec2.zero
        var s = b.headShape
        while s >= 0 {
            let sh = shapes[Int(s)]
            if sh.density > 0 {
                let md = sh.massData(massPerArea: sh.density * massPerAreaScale)
                mass += md.mass
                lc += md.mass * md.center
                rot += md.rotationalInertia
            }
            b.minExtent = min(b.minExtent, sh.innerRadius())
            s = sh.nextShape
        }
        if mass > 0 && mass.isFinite {
            b.mass = mass
            b.invMass = 1 / mass
            lc = (1 / mass) * lc
        } else {
            // A dynamic body needs mass: fall back to 1 so it still moves sensibly.
            b.mass = 1; b.invMass = 1
        }
        if rot > 0 && !b.fixedRotation {
            b.inertia = rot - b.mass * dot(lc, lc)
            if b.inertia > 0 && b.inertia.isFinite { b.invInertia = 1 / b.inertia } else { b.inertia = 0; b.invInertia = 0 }
        }
        let oldCenter = b.center
        b.localCenter = lc
        b.center = b.transform.apply(lc)
        b.center0 = b.center
        // keep the velocity of the centre of mass consistent with the origin's
        b.linearVelocity += cross(b.angularVelocity, b.center - oldCenter)
        s = b.headShape
        while s >= 0 { b.maxExtent = max(b.maxExtent, shapes[Int(s)].extent(from: lc)); s = shapes[Int(s)].nextShape }
        if b.minExtent == .greatestFiniteMagnitude { b.minExtent = 0 }
        bodies[bi] = b
    }


    func shapeID(_ i: Int32) -> ShapeID { ShapeID(index: i, generation: shapes.generation(i)) }
}
