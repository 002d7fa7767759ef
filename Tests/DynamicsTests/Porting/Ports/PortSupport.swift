// Stand-ins for the UIKit pieces around the dynamics code of the ported samples.
//
// A port keeps the sample's dynamics calls as written, minus `UI`; what UIKit provides around them
// (a view hierarchy, a display link, colours) is replaced by the least that shows the motion.
import Dynamics
import Testing

/// The bounds of the sample's reference view: an iPhone 8 screen, 375 × 667 pt.
let phoneBounds = CGRect(x: 0, y: 0, width: 375, height: 667)

/// A view: UIKit's `UIView` is a dynamic item; here a `BasicDynamicItem` (it has `init(frame:)`)
/// with the one property the samples set on their views.
class View: BasicDynamicItem {
    var backgroundColor = "white"
}

/// The animator's rotation of `item`, in radians.
func rotation(of item: any DynamicItem) -> CGFloat {
    CGFloat(atan2(Double(item.transform.b), Double(item.transform.a)))
}

/// Whether `angle` is a whole number of quarter turns, within `tolerance` radians: a square lying
/// flat on a side.
func isQuarterTurn(_ angle: CGFloat, tolerance: CGFloat = 0.01) -> Bool {
    let quarters = angle / (.pi / 2)
    return abs(quarters - quarters.rounded()) * .pi / 2 < tolerance
}

/// Steps `animator` (the display link of the sample) until `done` holds or `seconds` pass;
/// returns the time it took, or nil.
@discardableResult
func runUntil(_ animator: DynamicAnimator, seconds: TimeInterval, _ done: () -> Bool) -> TimeInterval? {
    let steps = Int(seconds * 60)
    for k in 0..<steps {
        animator.step()
        if done() { return Double(k + 1) / 60 }
    }
    return nil
}
