import Foundation

// Gravity, push and field behaviours expose a direction vector together with its angle and
// magnitude as one value (setting one updates the others). These helpers are the single place
// where that polar conversion is written, on every platform (CoreGraphics' own CGVector included).
extension CGVector {
    /// The direction in radians, turning from +x toward +y: `atan2(dy, dx)`, in (−π, π].
    /// 0 for the zero vector.
    var angle: CGFloat {
        CGFloat(atan2(Double(dy), Double(dx)))
    }

    /// The length, `hypot(dx, dy)`, in the vector's units; never negative.
    var magnitude: CGFloat {
        CGFloat(hypot(Double(dx), Double(dy)))
    }

    /// Creates the vector of length `magnitude` pointing `angle` radians from +x toward +y.
    /// A negative magnitude points the opposite way, as UIKit's `setAngle(_:magnitude:)` does.
    init(angle: CGFloat, magnitude: CGFloat) {
        let radians = Double(angle)
        let length = Double(magnitude)
        self.init(dx: CGFloat(length * cos(radians)), dy: CGFloat(length * sin(radians)))
    }
}
