import Dynamics
import Foundation

// `bench --snapshot`: the size of a 1 000-item animator's snapshot and the time to take, encode,
// decode and restore it (release build; min over the repeats). Not a pass/fail test: the numbers
// are reported by hand (see the commit that changes the snapshot format).

/// 1 000 items (every third an ellipse, 12…40 pt) rain into a 1 024 × 768 box for 150 steps, so the
/// snapshot is taken mid-motion with a pile of warm-started contacts.
func snapshotBenchScene() -> DynamicAnimator {
    let animator = DynamicAnimator(referenceBounds: CGRect(x: 0, y: 0, width: 1024, height: 768))
    let collision = CollisionBehavior()
    collision.setTranslatesReferenceBoundsIntoBoundary(with: CollisionBehavior.Insets(top: -2000, left: 0, bottom: 0, right: 0))
    let gravity = GravityBehavior()
    let material = DynamicItemBehavior()
    material.elasticity = 0.3
    material.friction = 0.4
    var state: UInt64 = 1
    func uniform(_ r: ClosedRange<Double>) -> Double {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return r.lowerBound + (r.upperBound - r.lowerBound) * Double(state >> 11) / Double(1 << 53)
    }
    for k in 0..<1000 {
        let w = uniform(12...40), h = uniform(12...40)
        let center = CGPoint(x: 512 + 44 * (Double(k % 23) - 11) + uniform(-2...2), y: 30 - 44 * Double(k / 23))
        let item = BasicDynamicItem(center: center, size: CGSize(width: w, height: h),
                                    collisionBoundsType: k % 3 == 2 ? .ellipse : .rectangle)
        collision.addItem(item)
        gravity.addItem(item)
        material.addItem(item)
    }
    for b in [collision, gravity, material] as [DynamicBehavior] { animator.addBehavior(b) }
    for _ in 0..<150 { animator.step() }
    return animator
}

func runSnapshotBench(repeats: Int) {
    let clock = ContinuousClock()
    let animator = snapshotBenchScene()
    var take: [Double] = [], encode: [Double] = [], decode: [Double] = [], restore: [Double] = []
    var size = 0
    for _ in 0..<max(1, repeats) {
        var t = clock.now
        let snap = animator.snapshot()
        take.append(milliseconds(clock.now - t))
        t = clock.now
        let data = try! JSONEncoder().encode(snap)
        encode.append(milliseconds(clock.now - t))
        size = data.count
        t = clock.now
        let decoded = try! JSONDecoder().decode(DynamicsSnapshot.self, from: data)
        decode.append(milliseconds(clock.now - t))
        t = clock.now
        try! animator.restore(decoded)
        restore.append(milliseconds(clock.now - t))
    }
    func f(_ xs: [Double]) -> String { String(format: "%.2f", xs.min() ?? 0) }
    print("snapshot of 1000 items: JSON \(size) bytes; snapshot() \(f(take)) ms, JSONEncoder \(f(encode)) ms, "
          + "JSONDecoder \(f(decode)) ms, restore \(f(restore)) ms (min of \(max(1, repeats)))")
}
