// Reading and changing live shapes through their ids.

extension World {
    // MARK: Shapes

    package func setFriction(_ id: ShapeID, _ f: Float) {
        guard isValid(id), f.isFinite, f >= 0 else { return }
        shapes[Int(id.index)].friction = f
        refreshContactMaterials(shapes[Int(id.index)].body)
    }

    package func setRestitution(_ id: ShapeID, _ e: Float) {
        guard isValid(id), e.isFinite, e >= 0 else { return }
        shapes[Int(id.index)].restitution = e
        refreshContactMaterials(shapes[Int(id.index)].body)
    }

    package func setDensity(_ id: ShapeID, _ d: Float) {
        guard isValid(id), d.isFinite, d >= 0 else { return }
        shapes[Int(id.index)].density = d
        updateMass(Int(shapes[Int(id.index)].body))
    }

    package func setFilter(_ id: ShapeID, _ f: Filter) {
        guard isValid(id), shapes[Int(id.index)].filter != f else { return }
        let si = id.index
        let bi = Int(shapes[Int(si)].body)
        let old = shapes[Int(si)].filter
        let metNothing = broadPhase.meetsNothing(old)
        let inUseBefore = broadPhase.categoriesInUse
        broadPhase.countCategories(of: old, -1)
        broadPhase.countCategories(of: f, 1)
        if metNothing != broadPhase.meetsNothing(f) {
            // it joins or leaves the broad phase (see `BroadPhase.meetsNothing`)
            if shapes[Int(si)].isStaticProxy { noteStaticChange(si) } else { broadPhase.noteMovableShapesChanged() }
        }
        shapes[Int(si)].filter = f
        // shapes that start meeting something enter the pair search with boxes of their poses
        settleShapesJoining(after: inUseBefore)
        if metNothing && !broadPhase.meetsNothing(f) && !shapes[Int(si)].isStaticProxy { settleBoxes(of: Int(si)) }
        broadPhase.grid.movableDirty = true   // entries record whether a filter is the default one
        // drop contacts the new filter forbids; new pairs are found by the next search
        var ck = bodies[bi].headContactKey
        while ck >= 0 {
            let c = ck >> 1
            let next = contacts[Int(c)].nextKey.get(Int(ck & 1))
            let cc = contacts[Int(c)]
            if (cc.shapeA == si || cc.shapeB == si) && !shouldCollide(cc.shapeA, cc.shapeB) {
                wake(bodyIndex: cc.bodyA); wake(bodyIndex: cc.bodyB)
                destroyContact(c, reportEnd: true)
            }
            ck = next
        }
        if !shapes[Int(si)].enlarged { shapes[Int(si)].enlarged = true; broadPhase.movedProxies.append(si) }
        if shapes[Int(si)].isStaticProxy {
            // a static shape searches the movable layer when marked moved
        }
    }

    package func filter(_ id: ShapeID) -> Filter { isValid(id) ? shapes[Int(id.index)].filter : Filter() }

    func refreshContactMaterials(_ bi: Int32) {
        var ck = bodies[Int(bi)].headContactKey
        while ck >= 0 {
            let c = Int(ck >> 1)
            let a = shapes[Int(contacts[c].shapeA)], b = shapes[Int(contacts[c].shapeB)]
            (contacts[c].friction, contacts[c].restitution) = mixedMaterial(a, b)
            ck = contacts[c].nextKey.get(Int(ck & 1))
        }
    }

    /// Shapes of a body, in creation order.
    package func shapes(of id: BodyID) -> [ShapeID] {
        guard isValid(id) else { return [] }
        var out: [ShapeID] = []
        var s = bodies[Int(id.index)].headShape
        while s >= 0 { out.append(shapeID(s)); s = shapes[Int(s)].nextShape }
        return out.reversed()
    }

    /// The world outline of a shape: polygon vertices, segment ends, or a circle's centre and radius.
    package func outline(_ id: ShapeID) -> (points: [Vec2], radius: Float) {
        guard isValid(id) else { return ([], 0) }
        let s = shapes[Int(id.index)]
        let xf = bodies[Int(s.body)].transform
        switch s.kind {
        case .circle: return ([xf.apply(s.p1)], s.radius)
        case .segment: return ([xf.apply(s.p1), xf.apply(s.p2)], 0)
        case .polygon:
            let p = s.polygon!
            return ((0..<Int(p.count)).map { xf.apply(p.vertices[$0]) }, 0)
        }
    }

    package func aabb(_ id: ShapeID) -> AABB {
        guard isValid(id) else { return AABB(lower: .zero, upper: .zero) }
        refreshStaleBoxes()
        return shapes[Int(id.index)].aabb
    }

    /// Shapes whose box overlaps `box`, in index order.
    package func query(_ box: AABB) -> [ShapeID] {
        refreshStaleBoxes()
        var out: [ShapeID] = []
        for i in 0..<shapes.count where shapes[i].isAlive && shapes[i].aabb.overlaps(box) { out.append(shapeID(Int32(i))) }
        return out
    }
}
