// Smooth joins between segments: where two static segments share an end (the reference bounds'
// corners, a path's vertices, boundary lines that meet), each knows the far end of the other (its
// "ghost" vertex, as Box2D's chain shapes call it), so a contact that a segment's end would make
// only because the segment is taken alone — a box sliding across a flat joint meeting the next
// segment's end with its side — is left to the neighbour, which holds the item with its face.

/// The far ends of the segments that share a static segment's ends (world coordinates), when
/// exactly one other segment meets it there.
struct SegmentGhosts {
    var before = Vec2.zero
    var after = Vec2.zero
    var hasBefore = false
    var hasAfter = false
}

/// The static segments filed by end point, so the ghosts of a segment made or destroyed are
/// found from its own ends: its neighbours there are the only other segments whose ghosts change.
struct SegmentJoinIndex {
    /// Each end point (`key`) → the static segments ending there. Only looked up, never iterated,
    /// so its order never matters.
    var ends: [UInt64: [Int32]] = [:]
    /// Per shape slot: the two keys the segment is filed under, or nil (not filed).
    var filed: [SIMD2<UInt64>?] = []
    /// Static shapes made, destroyed or changed since the ghosts were last brought up to date.
    var pending: [Int32] = []

    /// An end point's key: its bit pattern (+ 0 turns −0 into 0, so the two zeros meet).
    @inline(__always)
    static func key(_ p: Vec2) -> UInt64 {
        UInt64((p.x + 0).bitPattern) << 32 | UInt64((p.y + 0).bitPattern)
    }
}

extension World {
    /// Brings the broad phase's segment ghosts up to date (`BroadPhase.updateSegmentGhosts`).
    func updateSegmentGhosts() {
        broadPhase.updateSegmentGhosts(smooth: def.smoothSegmentJoins, shapes: shapes, bodies: bodies)
    }
}

extension BroadPhase {
    /// Brings `segmentGhosts` up to date: from every static segment when `segmentGhostsDirty`,
    /// else only for the static shapes noted since (`noteStaticChange`) and the segments that
    /// share an end with them. An end shared by three or more segments gets no ghost (no single
    /// neighbour to leave the contact to). The ghosts depend only on which segments end where,
    /// never on the order they were filed in.
    mutating func updateSegmentGhosts(smooth: Bool, shapes: SlotPool<Shape>, bodies: SlotPool<Body>) {
        guard smooth else {
            segmentGhostsDirty = false
            segmentJoins.pending.removeAll()
            segmentGhosts.removeAll()
            return
        }
        if segmentGhostsDirty {
            segmentGhostsDirty = false
            segmentJoins = SegmentJoinIndex()
            segmentGhosts.removeAll(keepingCapacity: true)
            for i in 0..<Int32(shapes.count) { fileSegment(i, shapes: shapes, bodies: bodies) }
            for i in 0..<Int32(shapes.count) where i < Int32(segmentJoins.filed.count) && segmentJoins.filed[Int(i)] != nil {
                findGhosts(i, shapes: shapes, bodies: bodies)
            }
            return
        }
        guard !segmentJoins.pending.isEmpty else { return }
        var changed = segmentJoins.pending
        segmentJoins.pending.removeAll(keepingCapacity: true)
        changed.sort()
        var last: Int32 = -1
        var touched: [UInt64] = []
        for s in changed where s != last && s >= 0 && Int(s) < shapes.count {
            last = s
            if let keys = unfileSegment(s) { touched.append(keys.x); touched.append(keys.y) }
            if let keys = fileSegment(s, shapes: shapes, bodies: bodies) {
                touched.append(keys.x); touched.append(keys.y)
            }
            if Int(s) < segmentGhosts.count { segmentGhosts[Int(s)] = SegmentGhosts() }
        }
        // every segment at an end that changed, and the changed ones themselves
        for k in touched {
            for o in segmentJoins.ends[k] ?? [] { findGhosts(o, shapes: shapes, bodies: bodies) }
        }
    }

    /// Files shape `s` under its end points when it is a live static segment; returns the keys.
    @discardableResult
    private mutating func fileSegment(_ s: Int32, shapes: SlotPool<Shape>, bodies: SlotPool<Body>) -> SIMD2<UInt64>? {
        let i = Int(s)
        guard shapes[i].isAlive, shapes[i].kind == .segment else { return nil }
        let xf = bodies[Int(shapes[i].body)].transform
        guard bodies[Int(shapes[i].body)].type == .static else { return nil }
        let keys = SIMD2(SegmentJoinIndex.key(xf.apply(shapes[i].p1)), SegmentJoinIndex.key(xf.apply(shapes[i].p2)))
        if segmentJoins.filed.count < shapes.count {
            segmentJoins.filed.append(contentsOf: repeatElement(nil, count: shapes.count - segmentJoins.filed.count))
        }
        segmentJoins.filed[i] = keys
        segmentJoins.ends[keys.x, default: []].append(s)
        segmentJoins.ends[keys.y, default: []].append(s)
        return keys
    }

    /// Takes shape slot `s` out of the index (as it was filed, whatever the slot holds now);
    /// returns the keys it was filed under, or nil.
    private mutating func unfileSegment(_ s: Int32) -> SIMD2<UInt64>? {
        guard Int(s) < segmentJoins.filed.count, let keys = segmentJoins.filed[Int(s)] else { return nil }
        segmentJoins.filed[Int(s)] = nil
        for k in [keys.x, keys.y] {
            guard var list = segmentJoins.ends[k], let at = list.firstIndex(of: s) else { continue }
            list.remove(at: at)
            segmentJoins.ends[k] = list.isEmpty ? nil : list
        }
        return keys
    }

    /// Sets the ghosts of filed segment `s` from its neighbours in the index.
    private mutating func findGhosts(_ s: Int32, shapes: SlotPool<Shape>, bodies: SlotPool<Body>) {
        let i = Int(s)
        guard i < segmentJoins.filed.count, let keys = segmentJoins.filed[i] else { return }
        if segmentGhosts.count < shapes.count {
            segmentGhosts.append(contentsOf: repeatElement(SegmentGhosts(), count: shapes.count - segmentGhosts.count))
        }
        func far(_ at: UInt64) -> Vec2? {
            guard let list = segmentJoins.ends[at], list.count == 2 else { return nil }
            let o = Int(list[0] == s ? list[1] : list[0])
            guard o != i else { return nil }
            let oxf = bodies[Int(shapes[o].body)].transform
            let q1 = oxf.apply(shapes[o].p1), q2 = oxf.apply(shapes[o].p2)
            return SegmentJoinIndex.key(q1) == at ? q2 : q1
        }
        var g = SegmentGhosts()
        if let v = far(keys.x) { g.before = v; g.hasBefore = true }
        if let v = far(keys.y) { g.after = v; g.hasAfter = true }
        segmentGhosts[i] = g
    }
}

extension World {
    /// Whether `m` (segment `segment` on a static body, against another shape; the normal points
    /// from the segment to it) is a contact the segment's end makes only because the segment is
    /// taken alone: the normal leans past an end that meets a neighbour, the deepest point lies at
    /// or beyond that end, and the join there is flat (no corner to touch: the neighbour's face holds
    /// the item) or bends away with the normal in the neighbour's own face region. A concave join
    /// (a corner of the reference bounds seen from inside) is left alone: there the neighbour is
    /// another wall, and the segment's own contact is needed.
    ///
    /// Against a circle (`otherKind`), an end's contact always points at the circle's centre, so
    /// "leans past the end" means exactly "the centre lies past the end", in the neighbour's
    /// region: no tolerance. (With the polygons' 3° a disc whose centre was within 0.05 r of a flat
    /// joint kept the next segment's end contact, and recycling held that tilted normal for
    /// several points of travel: a 40 pt disc at 20 pt/s slid up it and turned back.)
    static func isGhostContact(_ m: Manifold, segment: Shape, xf: Transform, ghosts g: SegmentGhosts,
                               otherKind: ShapeKind, slop: Float) -> Bool {
        guard m.pointCount > 0 else { return false }
        let p1 = xf.apply(segment.p1), p2 = xf.apply(segment.p2)
        let span = p2 - p1
        let length = span.length
        guard length > 0 else { return false }
        let d = (1 / length) * span
        let n = m.normal
        let along = dot(n, d)
        // About 3° for polygons: a face normal tilted by less is the face's.
        let lean: Float = otherKind == .circle ? 0 : 0.05
        var f = d.rightPerp
        if dot(n, f) < 0 { f = -f }
        // Where along the segment the deepest point lies: at an end, the end made the contact
        // (a second, shallower point may lie further in, clipped from the other shape's face).
        var deepest = m.p0
        if m.pointCount > 1 && m.p1.separation < deepest.separation { deepest = m.p1 }
        let at = dot(deepest.point - p1, d)
        if along < -lean && g.hasBefore && at <= slop {
            return leansOff(n, joint: g.before - p1, face: f, along: -d, lean: lean)
        }
        if along > lean && g.hasAfter && at >= length - slop {
            return leansOff(n, joint: g.after - p2, face: f, along: d, lean: lean)
        }
        return false
    }

    /// Whether normal `n`, leaning past a segment's end by the direction `along` (unit, pointing
    /// out of the segment through that end), belongs to the neighbour that continues from there
    /// by `joint` (end → neighbour's far end): always where the join is flat, and where it bends
    /// away when `n` points into the neighbour's face region. Never where it bends toward `face`.
    private static func leansOff(_ n: Vec2, joint e: Vec2, face f: Vec2, along out: Vec2, lean: Float) -> Bool {
        let length = e.length
        guard length > 0, dot(e, out) > 0 else { return false }   // a neighbour folding back: leave it
        let bend = dot(e, f) / length
        if bend > 0.01 { return false }                     // concave: another wall
        if bend > -0.01 { return true }                     // flat: the neighbour's face
        return dot(n, (1 / length) * e) > lean              // convex: past the corner's region
    }
}
