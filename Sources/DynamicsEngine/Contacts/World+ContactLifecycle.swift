// Where a contact is born (the pair search finds two overlapping fat boxes) and dies (the boxes
// part, or a shape or body goes): its slot, the pair table, and both bodies' contact lists.

extension World {
    // MARK: Contacts

    func createContact(_ sa: Int32, _ sb: Int32) {
        var shapeA = shapes[Int(sa)], shapeB = shapes[Int(sb)]
        var a = sa, b = sb
        if shapeA.kind.rawValue < shapeB.kind.rawValue { swap(&a, &b); swap(&shapeA, &shapeB) }
        var c = Contact()
        c.shapeA = a; c.shapeB = b
        c.bodyA = shapeA.body; c.bodyB = shapeB.body
        (c.friction, c.restitution) = mixedMaterial(shapeA, shapeB)
        c.enableContactEvents = shapeA.enableContactEvents || shapeB.enableContactEvents
        c.pairKey = pairKey(a, b)
        let index = contacts.insert(c)
        refreshContactKey(index)
        broadPhase.pairs.insert(c.pairKey, index, crowding: crowding(c.pairKey))
        for side in 0..<2 {
            let bi = Int(side == 0 ? c.bodyA : c.bodyB)
            let key = (index << 1) | Int32(side)
            let head = bodies[bi].headContactKey
            contacts[Int(index)].prevKey.set(side, -1)
            contacts[Int(index)].nextKey.set(side, head)
            if head >= 0 { contacts[Int(head >> 1)].prevKey.set(Int(head & 1), key) }
            bodies[bi].headContactKey = key
            bodies[bi].contactCount += 1
        }
    }

    /// Whether the pair `key` counts toward its lower and its higher shape's crowding pairs: both
    /// bodies dynamic, and the other shape at least half as big (`crowdExtent`). A shape has room
    /// for only so many such neighbours unless they overlap — a heap — while it can touch any
    /// number of smaller ones (a wall among grains) or of static shapes (a floor under a pile).
    /// Depends on body types and geometry only; a body's type changes only after its contacts
    /// are gone, so a pair counts the same way from creation to destruction.
    @inline(__always)
    func crowding(_ key: UInt64) -> (low: Bool, high: Bool) {
        let sa = shapes.base + Int(key >> 32), sb = shapes.base + Int(key & 0xFFFF_FFFF)
        let bp = bodies.base
        guard bp[Int(sa.pointee.body)].type == .dynamic, bp[Int(sb.pointee.body)].type == .dynamic else { return (false, false) }
        let ea = sa.pointee.crowdExtent, eb = sb.pointee.crowdExtent
        return (2 * eb >= ea, 2 * ea >= eb)
    }

    /// Friction √(f₁f₂) and restitution max(e₁, e₂), unless one side defers to the other's material.
    func mixedMaterial(_ a: Shape, _ b: Shape) -> (Float, Float) {
        if a.usesOtherMaterial && !b.usesOtherMaterial { return (b.friction, b.restitution) }
        if b.usesOtherMaterial && !a.usesOtherMaterial { return (a.friction, a.restitution) }
        return ((a.friction * b.friction).squareRoot(), max(a.restitution, b.restitution))
    }

    func destroyContact(_ ci: Int32, reportEnd: Bool) {
        let c = contacts[Int(ci)]
        if reportEnd && c.isTouching && c.enableContactEvents {
            endEvents.append(ContactEvent(shapeA: shapeID(c.shapeA), shapeB: shapeID(c.shapeB), point: .zero, normal: c.manifold.normal, approachSpeed: 0))
        }
        if c.isTouching { releaseContactColor(ci) }
        broadPhase.pairs.remove(c.pairKey, crowding: crowding(c.pairKey))
        for side in 0..<2 {
            let bi = Int(side == 0 ? c.bodyA : c.bodyB)
            let prev = c.prevKey.get(side), next = c.nextKey.get(side)
            if prev >= 0 { contacts[Int(prev >> 1)].nextKey.set(Int(prev & 1), next) } else { bodies[bi].headContactKey = next }
            if next >= 0 { contacts[Int(next >> 1)].prevKey.set(Int(next & 1), prev) }
            bodies[bi].contactCount -= 1
        }
        contacts[Int(ci)].isTouching = false
        contacts.remove(ci)
        refreshContactKey(ci)
        if broadPhase.pairs.wantsRelist(c.shapeA) { relistPartners(c.shapeA) }
        if broadPhase.pairs.wantsRelist(c.shapeB) { relistPartners(c.shapeB) }
    }

    /// Gives the pair table shape `s`'s partners again, from its body's contact list, after its
    /// list overflowed (`PairTable.relistBelow`). The list is only ever searched, so the order of
    /// the body's list does not matter. Not for a shape whose body has more than
    /// `relistWalkLimit` contacts (one static body holding a whole floor of shapes, thousands of
    /// contacts): the walk would make removing a contact cost as much as the body's contacts, and
    /// the hash map still answers for it.
    private func relistPartners(_ s: Int32) {
        let body = bodies[Int(shapes[Int(s)].body)]
        guard body.contactCount <= World.relistWalkLimit else { return }
        var others: [Int32] = []
        others.reserveCapacity(PairTable.relistBelow)
        var ck = body.headContactKey
        while ck >= 0 {
            let c = contacts[Int(ck >> 1)]
            if c.shapeA == s { others.append(c.shapeB) } else if c.shapeB == s { others.append(c.shapeA) }
            ck = c.nextKey.get(Int(ck & 1))
        }
        broadPhase.pairs.relist(s, others)
    }

    /// The most contacts a body may have for one of its shapes to be relisted (`relistPartners`).
    static let relistWalkLimit = 4 * PairTable.listCapacity

    func destroyContactsBetween(_ a: Int32, _ b: Int32) {
        var ck = bodies[Int(a)].headContactKey
        while ck >= 0 {
            let c = ck >> 1
            let next = contacts[Int(c)].nextKey.get(Int(ck & 1))
            let other = (ck & 1) == 0 ? contacts[Int(c)].bodyB : contacts[Int(c)].bodyA
            if other == b { destroyContact(c, reportEnd: true) }
            ck = next
        }
    }
}
