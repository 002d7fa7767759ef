import Foundation

// Manifold functions. Each works in the local frame of shape A's body, then moves the result to
// world space. All points within `speculativeDistance` are kept: the solver lets a speculative point
// close exactly its gap in one sub-step, which stops tunnelling at ordinary speeds without a
// time-of-impact search (Box2D v3's speculative contacts).
//
// A manifold with no point keeps, in `p0.separation`, the separation that put it past the
// speculative distance (a lower bound on any point's, that moves no faster than the shapes): the
// narrow phase may keep such a manifold only while the pair has moved less than that margin. Left
// at 0, the pair is recomputed every step.

@inline(__always)
func circleManifold(centerA: Vec2, radiusA: Float, xfA: Transform, centerB: Vec2, radiusB: Float, xfB: Transform,
                    speculative: Float) -> Manifold {
    var m = Manifold()
    let pA = xfA.apply(centerA), pB = xfB.apply(centerB)
    let d = pB - pA
    let dist = d.length
    let sep = dist - radiusA - radiusB
    if sep > speculative { m.p0.separation = sep; return m }
    let normal = dist > 1e-6 ? (1 / dist) * d : Vec2(0, 1)
    let cA = pA + radiusA * normal, cB = pB - radiusB * normal
    let contact = lerp(cA, cB, 0.5)
    m.normal = normal
    m.p0.point = contact
    m.p0.anchorA = contact - xfA.p
    m.p0.anchorB = contact - xfB.p
    m.p0.separation = sep
    m.p0.id = 0
    m.pointCount = 1
    return m
}

/// Polygon (or segment) A against circle B. Frames: `xfA`, `xfB` are body origin transforms; the
/// anchors are returned relative to the body origins (the caller shifts them to centres of mass).
func polygonCircleManifold(vertices: UnsafePointer<Vec2>, normals: UnsafePointer<Vec2>, count: Int, radiusA: Float, xfA: Transform,
                           center: Vec2, radius: Float, xfB: Transform, speculative: Float) -> Manifold {
    var m = Manifold()
    // circle centre in A's frame
    let c = xfA.invApply(xfB.apply(center))
    var sepMax = -Float.greatestFiniteMagnitude
    var best = 0
    for i in 0..<count {
        let s = dot(normals[i], c - vertices[i])
        if s > sepMax { sepMax = s; best = i }
    }
    if sepMax - radius - radiusA > speculative { m.p0.separation = sepMax - radius - radiusA; return m }
    let v1 = vertices[best], v2 = vertices[(best + 1) % count]
    let e = v2 - v1
    let u1 = dot(c - v1, e), u2 = dot(c - v2, v1 - v2)
    var normalLocal: Vec2
    var sep: Float
    var cA: Vec2
    if u1 < 0 && sepMax > 1e-6 {
        // vertex region of v1
        let d = c - v1
        let dist = d.length
        sep = dist - radius - radiusA
        if sep > speculative { m.p0.separation = sep; return m }
        normalLocal = dist > 1e-6 ? (1 / dist) * d : normals[best]
        cA = v1 + radiusA * normalLocal
    } else if u2 < 0 && sepMax > 1e-6 {
        let d = c - v2
        let dist = d.length
        sep = dist - radius - radiusA
        if sep > speculative { m.p0.separation = sep; return m }
        normalLocal = dist > 1e-6 ? (1 / dist) * d : normals[best]
        cA = v2 + radiusA * normalLocal
    } else {
        normalLocal = normals[best]
        sep = sepMax - radius - radiusA
        cA = c - (dot(c - v1, normalLocal) - radiusA) * normalLocal
    }
    let cB = c - radius * normalLocal
    let contactLocal = lerp(cA, cB, 0.5)
    m.normal = xfA.q.rotate(normalLocal)
    let p = xfA.apply(contactLocal)
    m.p0.point = p
    m.p0.anchorA = p - xfA.p
    m.p0.anchorB = p - xfB.p
    m.p0.separation = sep
    m.p0.id = 0
    m.pointCount = 1
    return m
}

/// The edge of `poly1` with the largest separation from `poly2` (both in the same frame).
@inline(__always)
private func findMaxSeparation(_ v1: UnsafePointer<Vec2>, _ n1: UnsafePointer<Vec2>, _ c1: Int,
                               _ v2: UnsafePointer<Vec2>, _ c2: Int) -> (edge: Int, separation: Float) {
    var bestIndex = 0
    var maxSep = -Float.greatestFiniteMagnitude
    for i in 0..<c1 {
        let n = n1[i], v = v1[i]
        var si = Float.greatestFiniteMagnitude
        for j in 0..<c2 {
            let sij = dot(n, v2[j] - v)
            if sij < si { si = sij }
        }
        if si > maxSep { maxSep = si; bestIndex = i }
    }
    return (bestIndex, maxSep)
}

/// Convex polygon against convex polygon (segments are 2-gons), by separating axes and clipping the
/// incident edge against the reference edge: the classic two-point manifold with feature ids.
/// `scratch` must hold at least 2 × count(B) vectors.
func polygonsManifold(vA: UnsafePointer<Vec2>, nA: UnsafePointer<Vec2>, countA: Int, xfA: Transform,
                      vB localB: UnsafePointer<Vec2>, nB localNB: UnsafePointer<Vec2>, countB: Int, xfB: Transform,
                      scratch: UnsafeMutablePointer<Vec2>, speculative: Float, linearSlop: Float) -> Manifold {
    var m = Manifold()
    // B in A's frame
    let rel = xfA.invMul(xfB)
    let vB = scratch, nB = scratch + countB
    for i in 0..<countB {
        vB[i] = rel.apply(localB[i])
        nB[i] = rel.q.rotate(localNB[i])
    }
    let (edgeA, sepA) = findMaxSeparation(vA, nA, countA, UnsafePointer(vB), countB)
    if sepA > speculative { m.p0.separation = sepA; return m }
    let (edgeB, sepB) = findMaxSeparation(UnsafePointer(vB), UnsafePointer(nB), countB, vA, countA)
    if sepB > speculative { m.p0.separation = sepB; return m }

    // Reference face: prefer A unless B's axis separates clearly more (hysteresis against flip-flop).
    let flip: Bool
    let refV: UnsafePointer<Vec2>, refN: UnsafePointer<Vec2>, refCount: Int
    let incV: UnsafePointer<Vec2>, incN: UnsafePointer<Vec2>, incCount: Int
    let refEdge: Int
    if sepB > sepA + 0.1 * linearSlop {
        flip = true
        refV = UnsafePointer(vB); refN = UnsafePointer(nB); refCount = countB; refEdge = edgeB
        incV = vA; incN = nA; incCount = countA
    } else {
        flip = false
        refV = vA; refN = nA; refCount = countA; refEdge = edgeA
        incV = UnsafePointer(vB); incN = UnsafePointer(nB); incCount = countB
    }
    let normal = refN[refEdge]
    // incident edge: most anti-parallel normal
    var incEdge = 0
    var minDot = Float.greatestFiniteMagnitude
    for i in 0..<incCount {
        let d = dot(normal, incN[i])
        if d < minDot { minDot = d; incEdge = i }
    }
    let i11 = refEdge, i12 = refEdge + 1 < refCount ? refEdge + 1 : 0
    let i21 = incEdge, i22 = incEdge + 1 < incCount ? incEdge + 1 : 0
    let v11 = refV[i11], v12 = refV[i12]
    let v21 = incV[i21], v22 = incV[i22]
    let tangent = v12 - v11
    let tlen = tangent.length
    guard tlen > 1e-9 else { return m }
    let t = (1 / tlen) * tangent
    // clip the incident segment to the reference edge's side planes
    let lower1: Float = 0, upper1 = tlen
    let upper2 = dot(v21 - v11, t), lower2 = dot(v22 - v11, t)
    // incident runs opposite to the reference edge: v21 near v12 end, v22 near v11 end
    var vLower = v22, vUpper = v21
    if lower2 < lower1 && upper2 - lower2 > 1e-9 {
        vLower = lerp(v22, v21, (lower1 - lower2) / (upper2 - lower2))
    }
    if upper2 > upper1 && upper2 - lower2 > 1e-9 {
        vUpper = lerp(v22, v21, (upper1 - lower2) / (upper2 - lower2))
    }
    let sepLower = dot(vLower - v11, normal)
    let sepUpper = dot(vUpper - v11, normal)
    // points midway between the incident point and the reference face
    let mLower = vLower - (0.5 * sepLower) * normal
    let mUpper = vUpper - (0.5 * sepUpper) * normal
    let worldNormal = xfA.q.rotate(flip ? -normal : normal)
    m.normal = worldNormal
    var count: Int32 = 0
    // ids: the reference vertex at that end and the incident vertex, as (A feature, B feature); a
    // clip does not change the id, so a point whose incident vertex slides past the edge end keeps
    // its warm-start impulse
    let idLower = flip ? featureID(i22, i11) : featureID(i11, i22)
    let idUpper = flip ? featureID(i21, i12) : featureID(i12, i21)
    if sepLower <= speculative {
        var mp = ManifoldPoint()
        let p = xfA.apply(mLower)
        mp.point = p; mp.anchorA = p - xfA.p; mp.anchorB = p - xfB.p
        mp.separation = sepLower; mp.id = idLower
        m.p0 = mp; count = 1
    }
    if sepUpper <= speculative {
        var mp = ManifoldPoint()
        let p = xfA.apply(mUpper)
        mp.point = p; mp.anchorA = p - xfA.p; mp.anchorB = p - xfB.p
        mp.separation = sepUpper; mp.id = idUpper
        if count == 0 { m.p0 = mp } else { m.p1 = mp }
        count += 1
    }
    m.pointCount = count
    return m
}
