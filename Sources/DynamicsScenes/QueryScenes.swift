import Dynamics
import Foundation

/// The query scenes of `bench --query` (Benchmarks/README.md): an animator of n items spread at
/// the same density whatever n (one item per 40 × 40 pt), so a hit test or a ray meets about
/// the same number of items at 1 000 items as at 100 000, and any growth of its cost with n is
/// the search's own.
package enum QueryScenes {
    /// The pitch of the items' grid (pt): one item per square of this side.
    package static let pitch = 40.0

    /// n items of 10…30 pt on a jittered grid of `pitch` (none overlapping), turned at random,
    /// every third an ellipse, in one collision behaviour (so they also stand in the broad
    /// phase) and, when `falling`, under gravity. Returns the animator, its items and the side
    /// of the square they cover (pt).
    package static func make(n: Int, seed: UInt64 = 1, falling: Bool = false) -> (DynamicAnimator, [BasicDynamicItem], Double) {
        var rng = SplitMix64Generator(seed: seed)
        let columns = max(1, Int(Double(n).squareRoot().rounded(.up)))
        let side = Double(columns) * pitch
        let animator = DynamicAnimator(referenceBounds: CGRect(x: 0, y: 0, width: side, height: side + pitch))
        let items = (0..<n).map { k -> BasicDynamicItem in
            let center = CGPoint(x: (Double(k % columns) + 0.5) * pitch + Double.random(in: -4...4, using: &rng),
                                 y: (Double(k / columns) + 0.5) * pitch + Double.random(in: -4...4, using: &rng))
            let item = BasicDynamicItem(center: center,
                                        size: CGSize(width: Double.random(in: 10...30, using: &rng), height: Double.random(in: 10...30, using: &rng)),
                                        collisionBoundsType: k % 3 == 0 ? .ellipse : .rectangle)
            item.transform = CGAffineTransform(rotationAngle: Double.random(in: -1.5...1.5, using: &rng))
            return item
        }
        let collision = CollisionBehavior(items: items)
        collision.translatesReferenceBoundsIntoBoundary = true
        animator.addBehavior(collision)
        if falling { animator.addBehavior(GravityBehavior(items: items)) }
        return (animator, items, side)
    }
}
