import DynamicsEngine
import Foundation

// The one place where the public layer's CGFloat geometry meets the engine's Float vectors. The
// engine works in UIKit points, seconds and radians (lengthUnitsPerMeter = 100), so no scaling
// happens here: only the change of precision.

extension Vec2 {
    /// The point's coordinates, rounded to `Float`.
    init(_ point: CGPoint) {
        self.init(Float(point.x), Float(point.y))
    }

    /// The vector's components, rounded to `Float`.
    init(_ vector: CGVector) {
        self.init(Float(vector.dx), Float(vector.dy))
    }

    var cgPoint: CGPoint { CGPoint(x: CGFloat(x), y: CGFloat(y)) }
}

/// The largest coordinate, in points, the animator accepts for a position, an offset or a length:
/// 10⁷ pt. Beyond it the engine's `Float` positions lose whole points and its products overflow,
/// so a farther point is reported as bad input, like a non-finite one.
let maximumAnimatorCoordinate: CGFloat = 10_000_000

extension CGPoint {
    /// Whether both coordinates are finite.
    var isFiniteAnimatorValue: Bool { x.isFinite && y.isFinite }

    /// Whether both coordinates are finite and within ±10⁷ pt (`maximumAnimatorCoordinate`).
    var isUsableAnimatorValue: Bool {
        x.isFinite && y.isFinite && abs(x) <= maximumAnimatorCoordinate && abs(y) <= maximumAnimatorCoordinate
    }

    /// The point rotated by `angle` radians about the origin (+x toward +y).
    func rotatedForAnimator(by angle: CGFloat) -> CGPoint {
        let c = cos(Double(angle)), s = sin(Double(angle))
        return CGPoint(x: c * Double(x) - s * Double(y), y: s * Double(x) + c * Double(y))
    }
}

extension CGAffineTransform {
    /// The rotation the animator reads from a transform: `atan2(b, a)` radians.
    var animatorAngle: CGFloat { CGFloat(atan2(Double(b), Double(a))) }
}

/// How an item is named in diagnostics: its `name` when it is a named ``BasicDynamicItem``,
/// else its type.
func itemLabel(_ item: any DynamicItem) -> String {
    if let basic = item as? BasicDynamicItem, let name = basic.name { return "item \"\(name)\"" }
    return "item of type \(type(of: item))"
}

/// How a behaviour is named in diagnostics.
func behaviorLabel(_ behavior: DynamicBehavior) -> String {
    "\(type(of: behavior))"
}
