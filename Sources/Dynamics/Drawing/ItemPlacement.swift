import Foundation

/// Where one part of an item lies in the animator's space: the item's pose (from a frame)
/// composed with the part's place in the item (from a ``TraceScene``).
///
/// The ASCII and SVG renderers place every shape through this one type, in `Double`, so a live
/// frame and the same frame read back from a trace (whose numbers round-trip exactly) give the
/// same points bit for bit.
struct ItemPlacement {
    /// The part's center, in points.
    var center: CGPoint
    /// The part's rotation in the animator's space, in radians, and its cosine and sine.
    var angle: Double
    var cosine: Double, sine: Double

    init(pose: FrameReport.Item, part: TraceScene.Part) {
        let a = Double(pose.angle)
        let c = cos(a), s = sin(a)
        let px = Double(part.center.x), py = Double(part.center.y)
        center = CGPoint(x: Double(pose.center.x) + (c * px - s * py), y: Double(pose.center.y) + (s * px + c * py))
        if part.angle == 0 {
            angle = a
            cosine = c
            sine = s
        } else {
            angle = a + Double(part.angle)
            cosine = cos(angle)
            sine = sin(angle)
        }
    }

    /// A point of the part's space in the animator's space.
    func apply(_ p: CGPoint) -> CGPoint {
        let x = Double(p.x), y = Double(p.y)
        return CGPoint(x: Double(center.x) + (cosine * x - sine * y), y: Double(center.y) + (sine * x + cosine * y))
    }

    /// The outline of a rectangle (corners clockwise on screen from the top left) or a path
    /// (its vertices), placed; empty for an ellipse.
    func outline(_ shape: TraceScene.Shape) -> [CGPoint] {
        switch shape {
        case .rectangle(let size):
            let hw = Double(size.width) / 2, hh = Double(size.height) / 2
            return [CGPoint(x: -hw, y: -hh), CGPoint(x: hw, y: -hh), CGPoint(x: hw, y: hh), CGPoint(x: -hw, y: hh)].map(apply)
        case .path(let vertices):
            return vertices.map(apply)
        case .ellipse:
            return []
        }
    }

    /// An ellipse's two half-axes as vectors in points: along the part's x axis (half the
    /// width) and along its y axis (half the height).
    func ellipseAxes(_ size: CGSize) -> (x: CGPoint, y: CGPoint) {
        let a = Double(size.width) / 2, b = Double(size.height) / 2
        return (CGPoint(x: a * cosine, y: a * sine), CGPoint(x: -b * sine, y: b * cosine))
    }

    /// The point an attachment is fixed to, in points; nil when the frame has no such item.
    static func point(_ end: TraceScene.ItemPoint, poses: [FrameReport.Item]) -> CGPoint? {
        guard end.item >= 0, end.item < poses.count else { return nil }
        let pose = poses[end.item]
        if end.offset == .zero { return pose.center }
        return ItemPlacement(pose: pose, part: TraceScene.Part(.rectangle(.zero))).apply(end.offset)
    }

    /// Grows `box` by every placed shape of the frame (an undescribed item by its center).
    static func addExtent(of scene: TraceScene, poses: [FrameReport.Item], to box: inout BoundingBox) {
        for (index, pose) in poses.enumerated() {
            let parts = index < scene.items.count ? scene.items[index].parts : []
            if parts.isEmpty {
                box.add(pose.center)
                continue
            }
            for part in parts {
                let place = ItemPlacement(pose: pose, part: part)
                if case .ellipse(let size) = part.shape {
                    let (ax, ay) = place.ellipseAxes(size)
                    let ex = (Double(ax.x) * Double(ax.x) + Double(ay.x) * Double(ay.x)).squareRoot()
                    let ey = (Double(ax.y) * Double(ax.y) + Double(ay.y) * Double(ay.y)).squareRoot()
                    box.add(CGPoint(x: Double(place.center.x) - ex, y: Double(place.center.y) - ey))
                    box.add(CGPoint(x: Double(place.center.x) + ex, y: Double(place.center.y) + ey))
                } else {
                    for p in place.outline(part.shape) { box.add(p) }
                }
            }
        }
    }
}

extension TraceScene.Boundary {
    /// Calls `body` with the ends of every segment, the closing one included.
    func forEachSegment(_ body: (CGPoint, CGPoint) -> Void) {
        guard points.count >= 2 else { return }
        for k in 0 ..< points.count - 1 { body(points[k], points[k + 1]) }
        if isClosed, points.count > 2 { body(points[points.count - 1], points[0]) }
    }
}
