import DynamicsEngine
import Foundation

/// One collision shape of an item's body, in the body frame (pt).
struct ItemShapePlan {
    var geometry: ShapeGeometry
    /// Multiplies the item's density for this shape (see `ItemRecord.densityScales`).
    var densityScale: Float
}

/// Turns an item's size and collision type into engine shapes.
///
/// - `.rectangle`: a box.
/// - `.ellipse`: a circle when width == height; otherwise a convex polygon inscribed in the
///   ellipse. Its vertex count comes from the sagitta: a chord of the circle of the semi-major
///   radius `a` spanning 2π/N deviates from the arc by `a(1 − cos(π/N))`, so
///   N ≥ π / acos(1 − 0.5/a) keeps the outline within 0.5 pt of the circle, and the ellipse (that
///   circle squeezed along one axis) deviates less. At least 8, at most 1024 vertices, a multiple
///   of 4, placed half a step off the axes so that a flat face, not a vertex, lies at each end of
///   both axes: an ellipse set down on its side rests on that face as on iOS, where a polygon
///   standing on a vertex would tip onto the next face (a 50 × 40 ellipse on a floor turned 9°).
///   The polygon's density is raised by (ellipse area / polygon area) so the mass is exactly
///   density × π·w·h/4 / 10 000.
/// - `.path`: the first subpath of the flattened bounding path (0.5 pt tolerance, coarser when that
///   would give more than 1024 points, and a hull of more than 1024 vertices thinned); a concave or
///   self-intersecting outline is replaced by its convex hull, with a diagnostic; a missing,
///   empty or degenerate path, or one reaching more than 5·10⁵ pt from the center, falls back to
///   the rectangle, with a diagnostic.
enum ItemShapes {
    /// Sizes are kept within this range (pt); outside it the item gets the nearest bound and a
    /// diagnostic. 1 pt keeps a zero-sized item simulated; 10⁶ pt keeps Float positions precise
    /// to a tenth of a point.
    static let minimumSide: CGFloat = 1
    static let maximumSide: CGFloat = 1_000_000
    static let maximumEllipseVertices = 1024
    /// The most points a path outline keeps (see `pathOutline`): as many as an ellipse may have.
    static let maximumPathPoints = 1024

    /// The item's size, made usable: absolute value, finite, within `minimumSide…maximumSide`.
    /// `report` gets each problem's sentence; the caller, which knows the item, gives it the kind
    /// (`.unusableItemState(item:property: "bounds")`, and `.collisionShapeReplaced` for `plans`).
    static func sanitizedSize(_ size: CGSize, label: String, report: (String) -> Void) -> CGSize {
        func side(_ value: CGFloat, _ name: String) -> CGFloat {
            guard value.isFinite else {
                report("\(label) has a non-finite \(name) (\(value)); using \(minimumSide) pt.")
                return minimumSide
            }
            let v = abs(value)
            if value < 0 {
                report("\(label) has a negative \(name) (\(value) pt); using \(min(max(v, minimumSide), maximumSide)) pt.")
                return min(max(v, minimumSide), maximumSide)
            }
            if v < minimumSide {
                report("\(label) has a \(name) of \(value) pt; using \(minimumSide) pt (a body needs an area).")
                return minimumSide
            }
            if v > maximumSide {
                report("\(label) has a \(name) of \(value) pt; using \(maximumSide) pt.")
                return maximumSide
            }
            return v
        }
        return CGSize(width: side(size.width, "width"), height: side(size.height, "height"))
    }

    /// The vertex count of an ellipse polygon whose outline stays within 0.5 pt of the ellipse: the
    /// least multiple of 4 that does (a face at each end of both axes, see the type's notes).
    static func ellipseVertexCount(semiMajor a: Double) -> Int {
        guard a > 0.5, a.isFinite else { return 8 }
        let n = (Double.pi / acos(1 - 0.5 / a)).rounded(.up)
        guard n.isFinite else { return maximumEllipseVertices }
        let quarters = (min(max(Int(n), 8), maximumEllipseVertices) + 3) / 4
        return 4 * quarters
    }

    /// The shapes of `item` with its center at `offset` and rotated by `angle` in the body frame.
    static func plans(for item: any DynamicItem, size: CGSize, offset: CGPoint, angle: CGFloat,
                      label: String, report: (String) -> Void) -> [ItemShapePlan] {
        let hw = Double(size.width) / 2, hh = Double(size.height) / 2
        let center = Vec2(offset)
        let rectangle = ItemShapePlan(geometry: .box(halfWidth: Float(hw), halfHeight: Float(hh), center: center, angle: Float(angle)),
                                      densityScale: 1)
        switch item.collisionBoundsType {
        case .rectangle:
            return [rectangle]
        case .ellipse:
            if size.width == size.height {
                return [ItemShapePlan(geometry: .circle(center: center, radius: Float(hw)), densityScale: 1)]
            }
            let n = ellipseVertexCount(semiMajor: max(hw, hh))
            var points: [Vec2] = []
            points.reserveCapacity(n)
            for i in 0..<n {
                let t = 2 * Double.pi * (Double(i) + 0.5) / Double(n)
                let local = CGPoint(x: hw * cos(t), y: hh * sin(t)).rotatedForAnimator(by: angle)
                points.append(Vec2(CGPoint(x: local.x + offset.x, y: local.y + offset.y)))
            }
            // Area of the inscribed N-gon of an ellipse: (N/2)·a·b·sin(2π/N).
            let polygonArea = Double(n) / 2 * hw * hh * sin(2 * Double.pi / Double(n))
            let scale = polygonArea > 0 ? Float(Double.pi * hw * hh / polygonArea) : 1
            return [ItemShapePlan(geometry: .polygon(points), densityScale: scale)]
        case .path:
            guard let outline = pathOutline(item.collisionBoundingPath, label: label, report: report) else {
                return [rectangle]
            }
            let points = outline.map { p -> Vec2 in
                let r = p.rotatedForAnimator(by: angle)
                return Vec2(CGPoint(x: r.x + offset.x, y: r.y + offset.y))
            }
            return [ItemShapePlan(geometry: .polygon(points), densityScale: 1)]
        }
    }

    /// The convex outline of a bounding path (relative to the item's center), or nil (with a
    /// diagnostic) when the path cannot give one.
    static func pathOutline(_ path: BezierPath?, label: String, report: (String) -> Void) -> [CGPoint]? {
        guard let path, !path.isEmpty else {
            report("\(label) has collision bounds type .path but no collisionBoundingPath; using its rectangle.")
            return nil
        }
        var tolerance: CGFloat = 0.5
        var polylines = path.flattened(tolerance: tolerance)
        // A path hundreds of thousands of points across, flattened to 0.5 pt, has tens of thousands
        // of points: every contact with its hull would test them all. Coarser, until the outline
        // has at most `maximumPathPoints` (each try halves the points of every curve; lines stay).
        while let count = polylines.first?.points.count, count > maximumPathPoints, tolerance < 1e6 {
            tolerance *= 4
            let coarser = path.flattened(tolerance: tolerance)
            guard let fewer = coarser.first?.points.count, fewer < count else { break }
            polylines = coarser
        }
        guard let first = polylines.first else {
            report("\(label) has a collisionBoundingPath that draws nothing; using its rectangle.")
            return nil
        }
        if polylines.count > 1 {
            report("\(label) has a collisionBoundingPath with \(polylines.count) subpaths; only the first is used.")
        }
        if path.hasNonFinitePoints {
            report("\(label) has a collisionBoundingPath with non-finite points; they are left out.")
        }
        var hull = PolygonTools.convexHull(first.points, tolerance: 0.001)
        if hull.count > maximumPathPoints {
            // Lines the coarsening cannot thin: every k-th vertex of a convex polygon is a convex
            // polygon inside it.
            let stride = (hull.count + maximumPathPoints - 1) / maximumPathPoints
            hull = Swift.stride(from: 0, to: hull.count, by: stride).map { hull[$0] }
        }
        guard hull.count >= 3, PolygonTools.area(hull) >= 0.25 else {
            report("\(label) has a degenerate collisionBoundingPath (no area); using its rectangle.")
            return nil
        }
        let reach = maximumSide / 2
        guard hull.allSatisfy({ abs($0.x) <= reach && abs($0.y) <= reach }) else {
            report("\(label) has a collisionBoundingPath reaching beyond \(reach) pt from its center; using its rectangle.")
            return nil
        }
        let finitePoints = first.points.filter(\.isFiniteAnimatorValue)
        // Convex implies simple, and the simplicity test is O(n²): only for outlines that need it
        // and are short enough.
        if !PolygonTools.isConvex(finitePoints) {
            if finitePoints.count > maximumPathPoints {
                report("\(label) has a concave or self-intersecting collisionBoundingPath; using its convex hull.")
            } else if !PolygonTools.isSimple(finitePoints) {
                report("\(label) has a self-intersecting collisionBoundingPath; using its convex hull.")
            } else {
                report("\(label) has a concave collisionBoundingPath; using its convex hull.")
            }
        }
        return hull
    }
}
