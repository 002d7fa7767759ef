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

extension World {
    /// Rebuilds `segmentGhosts` from the static segments. An end shared by three or more segments
    /// gets no ghost (no single neighbour to leave the contact to). The table only decides which
    /// manifolds are kept, by exact end points, so the dictionary's order never matters.
    func rebuildSegmentGhosts() {
        segmentGhostsDirty = false
        segmentGhosts.removeAll(keepingCapacity: true)
        guard def.smoothSegmentJoins else { return }
        @inline(__always) func key(_ p: Vec2) -> UInt64 {
            // + 0 turns −0 into 0, so the two zeros meet
            UInt64((p.x + 0).bitPattern) << 32 | UInt64((p.y + 0).bitPattern)
        }
        var ends: [UInt64: [Int32]] = [:]
        var any = false
        for i in 0..<shapes.count where shapes[i].isAlive && shapes[i].kind == .segment {
            let b = bodies[Int(shapes[i].body)]
            guard b.type == .static else { continue }
            any = true
            ends[key(b.transform.apply(shapes[i].p1)), default: []].append(Int32(i))
            ends[key(b.transform.apply(shapes[i].p2)), default: []].append(Int32(i))
        }
        guard any else { return }
        segmentGhosts = Array(repeating: SegmentGhosts(), count: shapes.count)
        for i in 0..<shapes.count where shapes[i].isAlive && shapes[i].kind == .segment {
            let xf = bodies[Int(shapes[i].body)].transform
            guard bodies[Int(shapes[i].body)].type == .static else { continue }
            let p1 = xf.apply(shapes[i].p1), p2 = xf.apply(shapes[i].p2)
            func far(_ at: Vec2) -> Vec2? {
                guard let list = ends[key(at)], list.count == 2 else { return nil }
                let o = Int(list[0] == Int32(i) ? list[1] : list[0])
                guard o != i else { return nil }
                let oxf = bodies[Int(shapes[o].body)].transform
                let q1 = oxf.apply(shapes[o].p1), q2 = oxf.apply(shapes[o].p2)
                return key(q1) == key(at) ? q2 : q1
            }
            if let g = far(p1) { segmentGhosts[i].before = g; segmentGhosts[i].hasBefore = true }
            if let g = far(p2) { segmentGhosts[i].after = g; segmentGhosts[i].hasAfter = true }
        }
    }

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
