import Dynamics
import DynamicsEngine
import Foundation

/// One scene of the UIKit-level catalogue: a name, a one-line description, the reference bounds
/// and a builder that configures a fresh animator through the public `Dynamics` API only.
///
/// The same catalogue feeds the terminal playground, the benchmark (ui_rain, ui_fields,
/// ui_chains) and the tests. Building a scene twice gives two independent animators that evolve
/// bit for bit alike.
package struct UIKitScene: Sendable {
    /// The scene's name on the command line: lower case, words joined by `_`.
    package var name: String
    /// One line saying what the scene shows.
    package var summary: String
    /// The animator's reference bounds, in points.
    package var referenceBounds: CGRect
    /// Simulated seconds after which a player starts the scene again; `nil` (the default) plays
    /// it until every item rests.
    package var replayAfter: TimeInterval?
    /// Adds the scene's items and behaviours to the fresh instance's animator.
    package var build: @Sendable (UIKitSceneInstance) -> Void

    /// Creates a scene.
    package init(name: String, summary: String, referenceBounds: CGRect, replayAfter: TimeInterval? = nil,
                 build: @escaping @Sendable (UIKitSceneInstance) -> Void) {
        self.name = name
        self.summary = summary
        self.referenceBounds = referenceBounds
        self.replayAfter = replayAfter
        self.build = build
    }

    /// A freshly built instance of the scene: a new animator with the scene's items and behaviours,
    /// stepping on `workerCount` threads (default 1).
    package func make(workerCount: Int = 1) -> UIKitSceneInstance {
        let instance = UIKitSceneInstance(name: name, referenceBounds: referenceBounds, workerCount: workerCount)
        build(instance)
        return instance
    }
}

/// A built scene: its animator, its items in creation order and what keeps its delegates alive.
///
/// Drivers call ``advance(frame:by:)`` or ``step(frame:)``, which run the optional per-frame
/// ``hook`` first. Scenes that change over time mostly do it from a behaviour's `action` (called
/// after every step, as in UIKit), so their evolution does not depend on the frame rate.
package final class UIKitSceneInstance {
    /// The scene's name.
    package let name: String
    /// The animator, with the scene's behaviours.
    package let animator: DynamicAnimator
    /// Every item the scene made, in the order it made them (also the order items join the
    /// animator, unless the scene says otherwise). ``stateHash`` walks them in this order.
    package private(set) var items: [any DynamicItem] = []
    /// Called by drivers before each frame with the frame's index (0, 1, 2 …); default `nil`.
    package var hook: ((Int) -> Void)?
    /// Counts the contacts reported by the collision behaviours the scene gave it as delegate.
    package let contacts = ContactCounter()
    /// Objects the scene keeps alive for as long as the instance lives (delegates are weak).
    package var retained: [AnyObject] = []
    /// Marks a player draws over each picture (a ray and its hits), read after the frame's steps;
    /// default `nil`: none.
    package var overlays: (() -> [ASCIIRenderer.Overlay])?

    /// Creates an instance with an empty animator on `referenceBounds`, stepping on `workerCount`
    /// threads (default 1).
    package init(name: String, referenceBounds: CGRect, workerCount: Int = 1) {
        self.name = name
        animator = workerCount > 1 ? DynamicAnimator(referenceBounds: referenceBounds, workerCount: workerCount)
            : DynamicAnimator(referenceBounds: referenceBounds)
    }

    /// Records `item` as one of the scene's items and returns it.
    @discardableResult
    package func track<Item: DynamicItem>(_ item: Item) -> Item {
        items.append(item)
        return item
    }

    /// Runs the hook for frame `index`, then one fixed step.
    package func step(frame index: Int) {
        hook?(index)
        animator.step()
    }

    /// Runs the hook for frame `index`, then advances the animator by `seconds`.
    ///
    /// - Returns: The fixed steps run.
    @discardableResult
    package func advance(frame index: Int, by seconds: TimeInterval) -> Int {
        hook?(index)
        return animator.advance(by: seconds)
    }

    /// FNV-1a (64-bit) over the bit patterns of every item's center x, center y and angle
    /// (`atan2(transform.b, transform.a)`), as `Double`s, little-endian, in ``items`` order.
    package var stateHash: UInt64 {
        var hash = FNV1a()
        for item in items {
            hash.add(Double(item.center.x))
            hash.add(Double(item.center.y))
            hash.add(atan2(Double(item.transform.b), Double(item.transform.a)))
        }
        return hash.value
    }

    /// Whether every item's center and angle are finite.
    package var allItemsFinite: Bool {
        items.allSatisfy { item in
            item.center.x.isFinite && item.center.y.isFinite && item.transform.a.isFinite && item.transform.b.isFinite
        }
    }
}

/// A collision delegate that counts the contacts its behaviours report.
package final class ContactCounter: CollisionBehaviorDelegate {
    /// Contacts begun (item–item and item–boundary).
    package private(set) var began = 0
    /// Contacts ended.
    package private(set) var ended = 0
    /// Contacts begun and not yet ended.
    package var touching: Int { began - ended }

    package init() {}

    package func collisionBehavior(_ behavior: CollisionBehavior, beganContactFor item1: any DynamicItem,
                                   with item2: any DynamicItem, at p: CGPoint) {
        began += 1
    }

    package func collisionBehavior(_ behavior: CollisionBehavior, endedContactFor item1: any DynamicItem,
                                   with item2: any DynamicItem) {
        ended += 1
    }

    package func collisionBehavior(_ behavior: CollisionBehavior, beganContactFor item: any DynamicItem,
                                   withBoundaryIdentifier identifier: AnyHashable?, at p: CGPoint) {
        began += 1
    }

    package func collisionBehavior(_ behavior: CollisionBehavior, endedContactFor item: any DynamicItem,
                                   withBoundaryIdentifier identifier: AnyHashable?) {
        ended += 1
    }
}

/// A seeded pseudo-random generator: SplitMix64 (Steele, Lea & Flood 2014). The same seed gives
/// the same sequence on every platform, so scenes built from it are reproducible.
package struct SplitMix64Generator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// Creates a generator; equal seeds give equal sequences.
    package init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform `Double` in `range`, from the top 53 bits of one draw (platform-independent,
    /// unlike `Double.random(in:using:)`, whose algorithm the standard library may change).
    package mutating func uniform(_ range: ClosedRange<Double>) -> Double {
        let unit = Double(next() >> 11) * 0x1p-53
        return range.lowerBound + unit * (range.upperBound - range.lowerBound)
    }
}

/// A mutable box for state that scene closures share (step counters, generators).
package final class SceneState<Value> {
    /// The value.
    package var value: Value
    /// Boxes `value`.
    package init(_ value: Value) { self.value = value }
}
