import Dynamics
import DynamicsEngine
import Foundation

/// The UIKit-level benchmark scenes of Benchmarks/README.md (ui_rain, ui_fields, ui_chains), built
/// through the public `Dynamics` API only and driven by `bench` like the engine scenes: one
/// `step()` of 1/60 s with 4 sub-steps per benchmark step.
package enum UIKitBenchmarkScenes {
    /// The three scenes as benchmark entries, in Benchmarks/README.md order.
    package static var all: [BenchmarkScene] {
        zip(scenes, steps).map { scene, steps in
            BenchmarkScene(name: scene.name, steps: steps, summary: "uikit") { threads in
                UIKitBenchmarkWorld(scene.make(workerCount: threads))
            }
        }
    }

    /// The three scenes as catalogue scenes (the playground can play them too).
    package static let scenes: [UIKitScene] = [rain, fields, chains]

    /// The benchmark's step count of each scene of ``scenes``.
    package static let steps = [600, 600, 600]

    /// The benchmark's reference bounds: 1 024 × 768 pt.
    static let bounds = CGRect(x: 0, y: 0, width: 1024, height: 768)

    /// ui_rain: 2 000 items (every third an ellipse; width and height each 12…40 pt from a
    /// SplitMix64 generator of seed 1) dropped from rows at the top of the 1 024 × 768 pt
    /// reference bounds (23 a row, 44 pt apart, rows stacked upward from y = 30, x jittered by
    /// ±2 pt); gravity 1; one collision behaviour in mode `.everything` with the reference bounds
    /// as its boundary and a delegate that counts contacts; elasticity 0.3 and friction 0.4.
    ///
    /// 2 000 such items cover about 1.4 million pt², nearly twice the box's 0.79 million: so the
    /// boundary's top edge is raised to y = −3 850 (a negative top inset) and the box is a tall
    /// tank whose bottom 768 pt are the view; every item stays inside and the pile ends up taller
    /// than the view.
    static let rain = UIKitScene(
        name: "ui_rain",
        summary: "2000 mixed items rain into a 1024 × 768 tank (benchmark)",
        referenceBounds: bounds
    ) { scene in
        var generator = SplitMix64Generator(seed: 1)
        let collision = CollisionBehavior()
        collision.setTranslatesReferenceBoundsIntoBoundary(with: CollisionBehavior.Insets(top: -3850, left: 0, bottom: 0, right: 0))
        collision.collisionDelegate = scene.contacts
        let gravity = GravityBehavior()
        let material = DynamicItemBehavior()
        material.elasticity = 0.3
        material.friction = 0.4
        let perRow = 23, pitch = 44.0
        for k in 0 ..< 2000 {
            let w = generator.uniform(12 ... 40), h = generator.uniform(12 ... 40)
            let jitter = generator.uniform(-2 ... 2)
            let row = k / perRow, column = k % perRow
            let center = CGPoint(x: bounds.midX + pitch * (Double(column) - Double(perRow - 1) / 2) + jitter,
                                 y: 30 - pitch * Double(row))
            let item = scene.track(BasicDynamicItem(center: center, size: CGSize(width: w, height: h),
                                                    collisionBoundsType: k % 3 == 2 ? .ellipse : .rectangle))
            collision.addItem(item)
            gravity.addItem(item)
            material.addItem(item)
        }
        for behavior in [collision, gravity, material] as [DynamicBehavior] { scene.animator.addBehavior(behavior) }
    }

    /// ui_fields: 10 000 items of 4 × 4 pt (mass 0.0016) on a 100 × 100 grid over the
    /// 1 024 × 768 pt bounds, no collision, under three fields centred in the bounds, each with a
    /// region: a vortex (strength 0.0000128, within 300 pt: 500 pt/s² on these items, since UIKit's
    /// vortex divides by the mass twice), a radial gravity (strength 5: 500 pt/s², within 500 pt)
    /// and a noise field (smoothness 0.5, animation speed 1 Hz, strength 0.0063: about 280 pt/s² on
    /// them, within the bounds' rectangle).
    static let fields = UIKitScene(
        name: "ui_fields",
        summary: "10000 small items under vortex, radial gravity and noise fields (benchmark)",
        referenceBounds: bounds
    ) { scene in
        let center = CGPoint(x: bounds.midX, y: bounds.midY)
        let vortex = FieldBehavior.vortexField()
        vortex.position = center
        vortex.strength = 0.000_012_8
        vortex.region = Region(radius: 300)
        let attractor = FieldBehavior.radialGravityField(position: center)
        attractor.strength = 5
        attractor.falloff = 0   // uniform, as the scene was timed (UIKit's default for the kind is 2)
        attractor.region = Region(radius: 500)
        let noise = FieldBehavior.noiseField(smoothness: 0.5, animationSpeed: 1)
        noise.position = center
        noise.strength = 0.0063
        noise.region = Region(size: bounds.size)
        for j in 0 ..< 100 {
            for i in 0 ..< 100 {
                let item = scene.track(BasicDynamicItem(center: CGPoint(x: bounds.width * (Double(i) + 0.5) / 100,
                                                                        y: bounds.height * (Double(j) + 0.5) / 100),
                                                        size: CGSize(width: 4, height: 4)))
                vortex.addItem(item)
                attractor.addItem(item)
                noise.addItem(item)
            }
        }
        for behavior in [vortex, attractor, noise] as [DynamicBehavior] { scene.animator.addBehavior(behavior) }
    }

    /// ui_chains: 40 chains of 30 links (16 × 6 pt) joined by pin attachments at their shared
    /// ends, each hung from an anchor (y = 60 pt, 25.6 pt apart across the bounds) by an anchor
    /// attachment of length 0 at its first link's end. The chains start straight out to the
    /// right and swing down under gravity 1. No collision.
    static let chains = UIKitScene(
        name: "ui_chains",
        summary: "40 chains of 30 pinned links swing from anchors (benchmark)",
        referenceBounds: bounds
    ) { scene in
        let linkLength = 16.0
        let gravity = GravityBehavior()
        for c in 0 ..< 40 {
            let anchor = CGPoint(x: 12.8 + 25.6 * Double(c), y: 60)
            var previous: BasicDynamicItem?
            for k in 0 ..< 30 {
                let link = scene.track(BasicDynamicItem(center: CGPoint(x: anchor.x + linkLength * (Double(k) + 0.5), y: anchor.y),
                                                        size: CGSize(width: linkLength, height: 6)))
                gravity.addItem(link)
                let joint = CGPoint(x: anchor.x + linkLength * Double(k), y: anchor.y)
                if let previous {
                    scene.animator.addBehavior(AttachmentBehavior.pinAttachment(with: previous, attachedTo: link, attachmentAnchor: joint))
                } else {
                    scene.animator.addBehavior(AttachmentBehavior(item: link, offsetFromCenter: CGPoint(x: -linkLength / 2, y: 0),
                                                                  attachedToAnchor: joint))
                }
                previous = link
            }
        }
        scene.animator.addBehavior(gravity)
    }
}

/// Drives a UIKit scene for `bench`: counters from the animator's world, the hash from the items.
final class UIKitBenchmarkWorld: BenchmarkWorld {
    let scene: UIKitSceneInstance

    init(_ scene: UIKitSceneInstance) { self.scene = scene }

    func step(index: Int) { scene.step(frame: index) }
    var engineTime: Duration? { scene.animator.engineTime }
    var forceTime: Duration? { scene.animator.forceTime }
    var engineWorld: World { scene.animator.engineWorld }
    /// Items in the world (a group counts once).
    var bodyCount: Int { scene.animator.statistics.items }
    /// Engine joints: attachments and snaps.
    var jointCount: Int { scene.animator.statistics.joints }
    /// The engine's broad-phase pairs, touching or not (Box2D's counter, as for engine scenes).
    var contactCount: Int { scene.animator.statistics.contacts }
    var awakeBodyCount: Int { scene.animator.statistics.awakeItems }
    /// FNV-1a over every item's center x, y and angle bits, in the scene's item order.
    var stateHash: UInt64 { scene.stateHash }
}
