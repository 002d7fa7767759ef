import Foundation

/// A generation-checked handle to a shape.
package struct ShapeID: Hashable, Sendable, Codable, Comparable {
    package var index: Int32
    package var generation: UInt32
    package init(index: Int32, generation: UInt32) { self.index = index; self.generation = generation }
    package static let null = ShapeID(index: -1, generation: 0)
    package static func < (a: ShapeID, b: ShapeID) -> Bool { a.index < b.index }
}

/// Collision filtering with Box2D's rule: two shapes collide when each one's category is in the
/// other's mask, unless they share a group index (positive: always collide; negative: never).
package struct Filter: Equatable, Sendable, Codable {
    package var categoryBits: UInt64 = 1
    package var maskBits: UInt64 = .max
    package var groupIndex: Int32 = 0
    package init(categoryBits: UInt64 = 1, maskBits: UInt64 = .max, groupIndex: Int32 = 0) {
        self.categoryBits = categoryBits; self.maskBits = maskBits; self.groupIndex = groupIndex
    }

    package func shouldCollide(with other: Filter) -> Bool {
        if groupIndex == other.groupIndex && groupIndex != 0 { return groupIndex > 0 }
        return (maskBits & other.categoryBits) != 0 && (categoryBits & other.maskBits) != 0
    }

    /// True when no filter at all passes ``shouldCollide(with:)`` with this one: an empty category or
    /// mask and no positive group to override it. The broad phase leaves such shapes out (a UIKit item
    /// in no collision behaviour is one), so they cost nothing there however they move.
    package var collidesWithNothing: Bool { groupIndex <= 0 && (categoryBits == 0 || maskBits == 0) }
}

/// The geometry of a shape, in the body's local frame (pt).
package enum ShapeGeometry: Sendable, Equatable {
    /// A circle of `radius` around `center`.
    case circle(center: Vec2, radius: Float)
    /// The convex hull of `points` (at least 3 non-collinear points; duplicates removed).
    case polygon([Vec2])
    /// A box of half-extents `halfWidth` × `halfHeight`, centred at `center`, rotated by `angle`.
    case box(halfWidth: Float, halfHeight: Float, center: Vec2, angle: Float)
    /// A two-sided segment.
    case segment(Vec2, Vec2)
}

/// Material and filtering of a shape. Density in UIKit units: mass = density × area / (lengthUnitsPerMeter²).
package struct ShapeDef: Sendable {
    /// Density (mass per (length unit)² scaled by the world's `lengthUnitsPerMeter`); 1 by default.
    package var density: Float = 1
    /// Coulomb friction coefficient; mixed as √(f₁f₂). Default 0.6, Box2D's.
    package var friction: Float = 0.6
    /// Coefficient of restitution; mixed as max(e₁, e₂). Default 0.
    package var restitution: Float = 0
    package var filter = Filter()
    /// Report begin/end touch events for this shape.
    package var enableContactEvents = true
    /// A boundary's way of saying "use the other shape's friction and restitution": UIKit applies an
    /// item's own material against boundaries. Default false.
    package var usesOtherMaterial = false
    package var userData: Int = 0
    package init() {}
}

enum ShapeKind: UInt8 { case circle = 0, polygon = 1, segment = 2 }

/// Vertices and outward normals of a convex polygon, in the body frame, counter-clockwise in a
/// y-up sense. Held in manually managed memory so collision loops see no reference counting; the
/// world frees it when the shape is destroyed.
struct PolygonStore {
    var vertices: UnsafeMutablePointer<Vec2>
    var normals: UnsafeMutablePointer<Vec2>
    var count: Int32
    var centroid: Vec2
    /// The farthest vertex's distance from the centroid: the polygon's size for the contact
    /// budget (`World.crowdLimit`), fixed for its lifetime.
    var extent: Float
    /// A copy of the vertices of a polygon of at most four (a box, a triangle), in the shape
    /// itself: the shape's box is computed every step for every awake shape, and reading the vertex
    /// list (its own allocation) was a cache miss per shape, half of that pass (10 000 items).
    var inline: (Vec2, Vec2, Vec2, Vec2) = (.zero, .zero, .zero, .zero)

    init(points: [Vec2]) {
        let n = points.count
        vertices = .allocate(capacity: n)
        normals = .allocate(capacity: n)
        count = Int32(n)
        vertices.initialize(from: points, count: n)
        if n <= 4 {
            // unused places repeat the first vertex, so the box of all four is the polygon's
            inline = (points[0], points[min(1, n - 1)], points[min(2, n - 1)], points[min(3, n - 1)])
        }
        for i in 0..<n {
            let e = points[(i + 1) % n] - points[i]
            normals[i] = e.rightPerp.normalized
        }
        centroid = PolygonStore.centroid(points)
        var far: Float = 0
        for p in points { far = max(far, distance(p, centroid)) }
        extent = far
    }

    func free() { vertices.deallocate(); normals.deallocate() }

    func copy() -> PolygonStore { PolygonStore(points: Array(UnsafeBufferPointer(start: vertices, count: Int(count)))) }

    static func centroid(_ p: [Vec2]) -> Vec2 {
        var c = Vec2.zero, area: Float = 0
        let o = p[0]
        for i in 1..<(p.count - 1) {
            let e1 = p[i] - o, e2 = p[i + 1] - o
            let a = 0.5 * cross(e1, e2)
            c += a * (1 / 3) * (e1 + e2)
            area += a
        }
        return area > 0 ? o + (1 / area) * c : o
    }
}

/// A shape attached to a body.
struct Shape: PoolElement {
    // What the narrow phase reads of both shapes of every contact, first, so it sits in one cache
    // line (declaration order is layout order). Geometry is in the local frame. Circle: p1 = centre,
    // radius. Segment: p1, p2. Polygon: `polygon`.
    var fatAABB = AABB(lower: .zero, upper: .zero)
    var p1: Vec2 = .zero
    var p2: Vec2 = .zero
    var radius: Float = 0
    var kind: ShapeKind = .circle
    var isAlive = false
    var polygon: PolygonStore? = nil

    var body: Int32 = -1
    var nextShape: Int32 = -1
    // Material.
    var density: Float = 1
    var friction: Float = 0.6
    var restitution: Float = 0
    var filter = Filter()
    var enableContactEvents = true
    var usesOtherMaterial = false
    var userData: Int = 0
    // Broad phase.
    var aabb = AABB(lower: .zero, upper: .zero)
    var isStaticProxy = false
    var enlarged = false
}

/// Mass properties of a shape or body about a point (pt, mass units).
extension Shape {
    /// The shape's size for the contact budget: a circle's radius, half a segment, a polygon's
    /// farthest vertex from its centroid. Depends on the geometry only, which never changes, so a
    /// contact counts the same way when it is destroyed as when it was made.
    var crowdExtent: Float {
        switch kind {
        case .circle: return radius
        case .segment: return 0.5 * distance(p1, p2)
        case .polygon: return (polygon?.extent ?? 0) + radius
        }
    }
}

struct MassData { var mass: Float; var center: Vec2; var rotationalInertia: Float }

extension Shape {
    /// Mass, centroid and inertia about the shape's centroid… returned about the body origin.
    func massData(massPerArea density: Float) -> MassData {
        switch kind {
        case .circle:
            let rr = radius * radius
            let mass = density * Float.pi * rr
            return MassData(mass: mass, center: p1, rotationalInertia: mass * (0.5 * rr + dot(p1, p1)))
        case .segment:
            return MassData(mass: 0, center: 0.5 * (p1 + p2), rotationalInertia: 0)
        case .polygon:
            guard let poly = polygon else { return MassData(mass: 0, center: .zero, rotationalInertia: 0) }
            let n = Int(poly.count)
            let o = poly.vertices[0]
            var area: Float = 0, c = Vec2.zero, inertia: Float = 0
            for i in 1..<(n - 1) {
                let e1 = poly.vertices[i] - o, e2 = poly.vertices[i + 1] - o
                let d = cross(e1, e2)
                let a = 0.5 * d
                area += a
                c += a * (1 / 3) * (e1 + e2)
                let intx2 = e1.x * e1.x + e2.x * e1.x + e2.x * e2.x
                let inty2 = e1.y * e1.y + e2.y * e1.y + e2.y * e2.y
                inertia += (0.25 / 3) * d * (intx2 + inty2)
            }
            guard area > 0 else { return MassData(mass: 0, center: o, rotationalInertia: 0) }
            let mass = density * area
            let cl = (1 / area) * c
            let center = o + cl
            // inertia about o → about centroid → about the body origin
            var I = density * inertia
            I += mass * (dot(center, center) - dot(cl, cl))
            return MassData(mass: mass, center: center, rotationalInertia: I)
        }
    }

    /// The box of a polygon of at most four vertices from its inline copy (unused places repeat
    /// the first vertex): the same points in the same order as the general loop, so the same
    /// bits. Inlined where it is called, as the step's box pass does for every such shape.
    @inline(__always)
    static func box(ofQuad q: (Vec2, Vec2, Vec2, Vec2), _ xf: Transform) -> AABB {
        let a = xf.apply(q.0), b = xf.apply(q.1), c = xf.apply(q.2), d = xf.apply(q.3)
        return AABB(lower: minv(minv(minv(a, b), c), d), upper: maxv(maxv(maxv(a, b), c), d))
    }

    func computeAABB(_ xf: Transform) -> AABB {
        switch kind {
        case .circle:
            let c = xf.apply(p1)
            return AABB(lower: Vec2(c.x - radius, c.y - radius), upper: Vec2(c.x + radius, c.y + radius))
        case .segment:
            let a = xf.apply(p1), b = xf.apply(p2)
            return AABB(lower: minv(a, b), upper: maxv(a, b))
        case .polygon:
            let poly = polygon!
            if poly.count <= 4 { return Shape.box(ofQuad: poly.inline, xf) }
            var lo = xf.apply(poly.vertices[0]), hi = lo
            for i in 1..<Int(poly.count) {
                let v = xf.apply(poly.vertices[i])
                lo = minv(lo, v); hi = maxv(hi, v)
            }
            return AABB(lower: lo, upper: hi)
        }
    }

    /// Distance from the shape's centroid to its nearest boundary (pt): what the shape can move in a
    /// step without skipping past something as thin as a segment.
    func innerRadius() -> Float {
        switch kind {
        case .circle: return radius
        case .segment: return 0
        case .polygon:
            let poly = polygon!
            var r = Float.greatestFiniteMagnitude
            for i in 0..<Int(poly.count) {
                r = min(r, dot(poly.normals[i], poly.vertices[i] - poly.centroid))
            }
            return max(r, 0)
        }
    }

    /// Largest distance from `point` to the shape (pt).
    func extent(from point: Vec2) -> Float {
        switch kind {
        case .circle: return (p1 - point).length + radius
        case .segment: return max((p1 - point).length, (p2 - point).length)
        case .polygon:
            let poly = polygon!
            var r: Float = 0
            for i in 0..<Int(poly.count) { r = max(r, (poly.vertices[i] - point).length) }
            return r
        }
    }
}

/// Convex hull (Andrew's monotone chain), counter-clockwise in a y-up frame, collinear and
/// duplicate points dropped. Returns fewer than 3 points when the input spans no area.
package func convexHull(_ input: [Vec2], weldTolerance: Float = 0.0005) -> [Vec2] {
    let pts = input.filter { $0.isFinite }.sorted { $0.x < $1.x || ($0.x == $1.x && $0.y < $1.y) }
    var unique: [Vec2] = []
    for p in pts where unique.last.map({ distanceSquared($0, p) > weldTolerance * weldTolerance }) ?? true {
        unique.append(p)
    }
    if unique.count < 3 { return unique }
    var lower: [Vec2] = [], upper: [Vec2] = []
    for p in unique {
        while lower.count >= 2 && cross(lower[lower.count - 1] - lower[lower.count - 2], p - lower[lower.count - 2]) <= 0 { lower.removeLast() }
        lower.append(p)
    }
    for p in unique.reversed() {
        while upper.count >= 2 && cross(upper[upper.count - 1] - upper[upper.count - 2], p - upper[upper.count - 2]) <= 0 { upper.removeLast() }
        upper.append(p)
    }
    lower.removeLast(); upper.removeLast()
    let hull = lower + upper
    return hull
}
