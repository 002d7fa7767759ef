import Dynamics
import Foundation

/// The UIKit-level scene catalogue: the demos of Apple's "UIKit Dynamics Catalog" sample, then a
/// gallery of livelier scenes, all through the public `Dynamics` API. The terminal playground
/// plays them, the tests step every one of them.
///
/// Scenes that change over time (a moving anchor, a snap point that hops, pushes every second)
/// do it from the `action` of a behaviour, counting steps, so what happens does not depend on
/// the frame rate of whoever drives them. Units are UIKit's: points, seconds, radians, y down.
package enum UIKitScenes {
    /// The catalogue, in the order the playground lists it: the UIKit Dynamics Catalog set, then
    /// the gallery.
    package static let all: [UIKitScene] = catalog + gallery

    /// The UIKit Dynamics Catalog set.
    package static let catalog: [UIKitScene] = [
        gravity, collisionGravity, attachments, springs, snap, instantaneousPush, continuousPush,
        itemProperties, customItem, pendulum,
    ]

    /// The gallery: composite scenes beyond Apple's sample.
    package static let gallery: [UIKitScene] = [
        newtonsCradle, pyramid, rain, chain, fields, groupTumble, raySweep,
    ]

    /// The scene the playground plays when none is named: the rain of mixed shapes.
    package static var defaultScene: UIKitScene { rain }

    /// The catalogue scene or UIKit benchmark scene called `name`, or nil.
    package static func named(_ name: String) -> UIKitScene? {
        (all + UIKitBenchmarkScenes.scenes).first { $0.name == name }
    }

    /// The stage most scenes use: 640 × 400 pt, wider than tall like a terminal window.
    static let stage = CGRect(x: 0, y: 0, width: 640, height: 400)

    /// Steps per second at the animator's default step of 1/60 s.
    static let stepsPerSecond = 60

    // MARK: - The UIKit Dynamics Catalog

    /// Gravity alone: three items of different sizes and shapes fall side by side, in step,
    /// because gravity accelerates every mass alike; with no collision they leave the view.
    static let gravity = UIKitScene(
        name: "gravity",
        summary: "Three items of different sizes fall in step under one gravity (no collision)",
        referenceBounds: stage, replayAfter: 1.5
    ) { scene in
        let items: [any DynamicItem] = [
            scene.track(BasicDynamicItem(center: CGPoint(x: 180, y: 60), size: CGSize(width: 40, height: 40), name: "small")),
            scene.track(BasicDynamicItem(center: CGPoint(x: 320, y: 60), size: CGSize(width: 90, height: 90), name: "large")),
            scene.track(BasicDynamicItem(center: CGPoint(x: 460, y: 60), size: CGSize(width: 60, height: 60),
                                         collisionBoundsType: .ellipse, name: "ball")),
        ]
        scene.animator.addBehavior(GravityBehavior(items: items))
    }

    /// Collision + gravity: a square falls onto a barrier (a rectangular path boundary), tips over
    /// its edge because its center overhangs it, and lands on the floor.
    static let collisionGravity = UIKitScene(
        name: "collision_gravity",
        summary: "A square falls onto a barrier, tips over its edge and lands on the floor",
        referenceBounds: stage
    ) { scene in
        let square = scene.track(BasicDynamicItem(center: CGPoint(x: 200, y: 50), size: CGSize(width: 60, height: 60),
                                                  name: "square"))
        scene.animator.addBehavior(GravityBehavior(items: [square]))
        let collision = CollisionBehavior(items: [square])
        collision.translatesReferenceBoundsIntoBoundary = true
        collision.addBoundary(withIdentifier: "barrier", for: BezierPath(rect: CGRect(x: 0, y: 200, width: 190, height: 16)))
        collision.collisionDelegate = scene.contacts
        scene.animator.addBehavior(collision)
        let material = DynamicItemBehavior(items: [square])
        material.elasticity = 0.3
        material.friction = 0.3
        scene.animator.addBehavior(material)
    }

    /// Attachments: a box hangs from an anchor by a rigid attachment fixed 20 pt off its center,
    /// and the anchor is dragged round a loop, as a finger would in the sample.
    static let attachments = UIKitScene(
        name: "attachments",
        summary: "A box on a rigid attachment (offset from its center) follows an anchor moving in a loop",
        referenceBounds: stage
    ) { scene in
        let box = scene.track(BasicDynamicItem(center: CGPoint(x: 320, y: 260), size: CGSize(width: 60, height: 60), name: "box"))
        let anchor = CGPoint(x: 320, y: 110)
        let attachment = AttachmentBehavior(item: box, offsetFromCenter: CGPoint(x: -20, y: -20), attachedToAnchor: anchor)
        scene.animator.addBehavior(attachment)
        scene.animator.addBehavior(GravityBehavior(items: [box]))
        let collision = CollisionBehavior(items: [box])
        collision.translatesReferenceBoundsIntoBoundary = true
        collision.collisionDelegate = scene.contacts
        scene.animator.addBehavior(collision)
        let steps = SceneState(0)
        let director = DynamicBehavior()
        director.action = {
            steps.value += 1
            let t = Double(steps.value) / Double(stepsPerSecond)
            attachment.anchorPoint = CGPoint(x: anchor.x + 160 * sin(0.9 * t), y: anchor.y - 40 * sin(1.8 * t))
        }
        scene.animator.addBehavior(director)
    }

    /// Springs: the same attachment with a frequency of 1 Hz and a damping of 0.1, so the box
    /// bobs and sways on a spring while its anchor slides left and right.
    static let springs = UIKitScene(
        name: "springs",
        summary: "A box bobs on a spring attachment (1 Hz, damping 0.1) under a sliding anchor",
        referenceBounds: stage
    ) { scene in
        let box = scene.track(BasicDynamicItem(center: CGPoint(x: 320, y: 250), size: CGSize(width: 60, height: 60), name: "box"))
        let anchor = CGPoint(x: 320, y: 60)
        let spring = AttachmentBehavior(item: box, offsetFromCenter: CGPoint(x: 0, y: -30), attachedToAnchor: anchor)
        spring.frequency = 1
        spring.damping = 0.1
        scene.animator.addBehavior(spring)
        scene.animator.addBehavior(GravityBehavior(items: [box]))
        let collision = CollisionBehavior(items: [box])
        collision.translatesReferenceBoundsIntoBoundary = true
        collision.collisionDelegate = scene.contacts
        scene.animator.addBehavior(collision)
        let steps = SceneState(0)
        let director = DynamicBehavior()
        director.action = {
            steps.value += 1
            let t = Double(steps.value) / Double(stepsPerSecond)
            spring.anchorPoint = CGPoint(x: anchor.x + 180 * sin(2 * Double.pi * t / 5), y: anchor.y)
        }
        scene.animator.addBehavior(director)
    }

    /// Snap: a box snaps to each corner of a rectangle in turn, hopping every 1.5 s.
    static let snap = UIKitScene(
        name: "snap",
        summary: "A box snaps to the corners of a rectangle in turn, every 1.5 s",
        referenceBounds: stage
    ) { scene in
        let box = scene.track(BasicDynamicItem(center: CGPoint(x: 320, y: 200), size: CGSize(width: 50, height: 50), name: "box"))
        let corners = [CGPoint(x: 120, y: 100), CGPoint(x: 520, y: 100), CGPoint(x: 520, y: 300), CGPoint(x: 120, y: 300)]
        let snap = SnapBehavior(item: box, snapTo: corners[0])
        scene.animator.addBehavior(snap)
        let steps = SceneState(0)
        let director = DynamicBehavior()
        director.action = {
            steps.value += 1
            if steps.value % 90 == 0 {
                snap.snapPoint = corners[(steps.value / 90) % corners.count]
            }
        }
        scene.animator.addBehavior(director)
    }

    /// Instantaneous push: every second a box gets an impulse (magnitude 0.5, so +200 pt/s on its
    /// 0.25 mass) in a new direction, and bounces round the bounds.
    static let instantaneousPush = UIKitScene(
        name: "instantaneous_push",
        summary: "Every second an instantaneous push sends a box off in a new direction",
        referenceBounds: stage
    ) { scene in
        let box = scene.track(BasicDynamicItem(center: CGPoint(x: 320, y: 200), size: CGSize(width: 50, height: 50), name: "box"))
        let push = PushBehavior(items: [box], mode: .instantaneous)
        push.setAngle(-0.6, magnitude: 0.5)
        scene.animator.addBehavior(push)
        let collision = CollisionBehavior(items: [box])
        collision.translatesReferenceBoundsIntoBoundary = true
        collision.collisionDelegate = scene.contacts
        scene.animator.addBehavior(collision)
        let material = DynamicItemBehavior(items: [box])
        material.elasticity = 0.6
        material.resistance = 0.4
        material.angularResistance = 0.5
        scene.animator.addBehavior(material)
        let steps = SceneState(0)
        let director = DynamicBehavior()
        director.action = {
            steps.value += 1
            if steps.value % stepsPerSecond == 0 {
                // The golden angle, so successive pushes never repeat a direction.
                push.setAngle(-0.6 + 2.399_963 * CGFloat(steps.value / stepsPerSecond), magnitude: 0.5)
                push.active = true
            }
        }
        scene.animator.addBehavior(director)
    }

    /// Continuous push: a push of magnitude 0.3 whose direction turns at 0.8 rad/s drives a box
    /// round the bounds; resistance keeps its speed bounded.
    static let continuousPush = UIKitScene(
        name: "continuous_push",
        summary: "A continuous push that slowly turns drives a box around the bounds",
        referenceBounds: stage
    ) { scene in
        let box = scene.track(BasicDynamicItem(center: CGPoint(x: 320, y: 200), size: CGSize(width: 50, height: 50), name: "box"))
        let push = PushBehavior(items: [box], mode: .continuous)
        push.setAngle(0, magnitude: 0.3)
        push.setTargetOffsetFromCenter(CGPoint(x: 0, y: -10), for: box)
        scene.animator.addBehavior(push)
        let collision = CollisionBehavior(items: [box])
        collision.translatesReferenceBoundsIntoBoundary = true
        collision.collisionDelegate = scene.contacts
        scene.animator.addBehavior(collision)
        let material = DynamicItemBehavior(items: [box])
        material.elasticity = 0.4
        material.resistance = 0.5
        material.angularResistance = 1
        scene.animator.addBehavior(material)
        let steps = SceneState(0)
        let director = DynamicBehavior()
        director.action = {
            steps.value += 1
            push.angle = 0.8 * CGFloat(steps.value) / CGFloat(stepsPerSecond)
        }
        scene.animator.addBehavior(director)
    }

    /// Item properties: four balls of elasticity 0, 0.3, 0.6 and 0.9 drop side by side; two
    /// boxes of density 1 and 8 on the floor get the same upward impulse every 2 s: the light one
    /// jumps high, the heavy one barely lifts.
    static let itemProperties = UIKitScene(
        name: "item_properties",
        summary: "Balls of elasticity 0…0.9 bounce; boxes of density 1 and 8 get the same kick",
        referenceBounds: stage
    ) { scene in
        let collision = CollisionBehavior()
        collision.translatesReferenceBoundsIntoBoundary = true
        collision.collisionDelegate = scene.contacts
        let gravity = GravityBehavior()
        for (k, elasticity) in [0.0, 0.3, 0.6, 0.9].enumerated() {
            let ball = scene.track(BasicDynamicItem(center: CGPoint(x: 70 + 80 * Double(k), y: 70), size: CGSize(width: 40, height: 40),
                                                    collisionBoundsType: .ellipse, name: "elasticity \(elasticity)"))
            collision.addItem(ball)
            gravity.addItem(ball)
            let material = DynamicItemBehavior(items: [ball])
            material.elasticity = CGFloat(elasticity)
            scene.animator.addBehavior(material)
        }
        let light = scene.track(BasicDynamicItem(center: CGPoint(x: 430, y: 375), size: CGSize(width: 50, height: 50), name: "density 1"))
        let heavy = scene.track(BasicDynamicItem(center: CGPoint(x: 550, y: 375), size: CGSize(width: 50, height: 50), name: "density 8"))
        for box in [light, heavy] {
            collision.addItem(box)
            gravity.addItem(box)
        }
        let lightMaterial = DynamicItemBehavior(items: [light])
        lightMaterial.density = 1
        lightMaterial.friction = 0.5
        let heavyMaterial = DynamicItemBehavior(items: [heavy])
        heavyMaterial.density = 8
        heavyMaterial.friction = 0.5
        let kick = PushBehavior(items: [light, heavy], mode: .instantaneous)
        kick.setAngle(-CGFloat.pi / 2, magnitude: 1.5)
        kick.active = false
        for behavior in [collision, gravity, lightMaterial, heavyMaterial, kick] as [DynamicBehavior] {
            scene.animator.addBehavior(behavior)
        }
        let steps = SceneState(0)
        let director = DynamicBehavior()
        director.action = {
            steps.value += 1
            if steps.value % (2 * stepsPerSecond) == 30 { kick.active = true }
        }
        scene.animator.addBehavior(director)
    }

    /// A custom dynamic item: ``HexagonToken``, a class of the scene's own that conforms to
    /// `DynamicItem`, with a hexagonal bounding path and a trail of its recent centers.
    static let customItem = UIKitScene(
        name: "custom_item",
        summary: "Hexagons of a user class conforming to DynamicItem bounce around the bounds",
        referenceBounds: stage
    ) { scene in
        let collision = CollisionBehavior()
        collision.translatesReferenceBoundsIntoBoundary = true
        collision.collisionDelegate = scene.contacts
        let material = DynamicItemBehavior()
        material.elasticity = 0.9
        material.friction = 0.2
        let gravity = GravityBehavior()
        gravity.magnitude = 0.3
        let starts: [(CGPoint, CGPoint)] = [
            (CGPoint(x: 140, y: 120), CGPoint(x: 260, y: -80)),
            (CGPoint(x: 320, y: 220), CGPoint(x: -200, y: -260)),
            (CGPoint(x: 500, y: 140), CGPoint(x: -120, y: 160)),
        ]
        for (center, velocity) in starts {
            let token = scene.track(HexagonToken(center: center, radius: 30))
            collision.addItem(token)
            material.addItem(token)
            gravity.addItem(token)
            material.addLinearVelocity(velocity, for: token)
        }
        for behavior in [collision, material, gravity] as [DynamicBehavior] { scene.animator.addBehavior(behavior) }
    }

    /// Pendulum: ``PendulumBehavior``, a composite behaviour (a `DynamicBehavior` subclass with
    /// gravity, attachment and push children), swings two weights on rods of different lengths.
    static let pendulum = UIKitScene(
        name: "pendulum",
        summary: "Two composite PendulumBehaviors (gravity + attachment + push) swing out of phase",
        referenceBounds: stage
    ) { scene in
        let short = scene.track(BasicDynamicItem(center: CGPoint(x: 230 + 150 * sin(1.0), y: 40 + 150 * cos(1.0)),
                                                 size: CGSize(width: 40, height: 40), collisionBoundsType: .ellipse, name: "short"))
        let long = scene.track(BasicDynamicItem(center: CGPoint(x: 430 - 300 * sin(0.6), y: 40 + 300 * cos(0.6)),
                                                size: CGSize(width: 50, height: 50), collisionBoundsType: .ellipse, name: "long"))
        let first = PendulumBehavior(weight: short, suspendedFrom: CGPoint(x: 230, y: 40))
        let second = PendulumBehavior(weight: long, suspendedFrom: CGPoint(x: 430, y: 40))
        second.kick(angle: CGFloat.pi, magnitude: 0.2)
        scene.animator.addBehavior(first)
        scene.animator.addBehavior(second)
    }
}

/// A custom item: a hexagon that remembers where it has been. It stores its own center, bounds
/// and transform, collides as a `.path` hexagon, and keeps its last 32 centers in ``trail``.
package final class HexagonToken: DynamicItem {
    /// The center, in points; every value set is also appended to ``trail``.
    package var center: CGPoint {
        didSet {
            trail.append(center)
            if trail.count > 32 { trail.removeFirst(trail.count - 32) }
        }
    }
    /// The bounds of the hexagon, in points (origin zero).
    package let bounds: CGRect
    /// The transform; the animator writes a pure rotation.
    package var transform: CGAffineTransform = .identity
    /// The last centers the animator wrote (at most 32), oldest first.
    package private(set) var trail: [CGPoint] = []
    /// The collision shape: the hexagon path.
    package var collisionBoundsType: DynamicItemCollisionBoundsType { .path }
    /// A regular hexagon of the item's radius around the center.
    package let collisionBoundingPath: BezierPath?

    /// A hexagon of `radius` points (center to corner) at `center`.
    package init(center: CGPoint, radius: CGFloat) {
        self.center = center
        bounds = CGRect(x: 0, y: 0, width: 2 * radius, height: 2 * radius)
        let path = BezierPath()
        for k in 0 ..< 6 {
            let a = CGFloat.pi / 3 * CGFloat(k)
            let p = CGPoint(x: radius * cos(a), y: radius * sin(a))
            if k == 0 { path.move(to: p) } else { path.addLine(to: p) }
        }
        path.close()
        collisionBoundingPath = path
    }
}

/// A composite behaviour, as in Apple's sample: a pendulum made of a gravity, a rigid attachment
/// to a pivot and an instantaneous push for kicks, all children of one behaviour you add once.
package final class PendulumBehavior: DynamicBehavior {
    /// The pull on the weight.
    package let gravity: GravityBehavior
    /// The rod from the pivot to the weight's center.
    package let rod: AttachmentBehavior
    /// Kicks the weight; inactive until ``kick(angle:magnitude:)``.
    package let push: PushBehavior

    /// A pendulum swinging `weight` from `pivot` (points) on a rod of their current distance.
    package init(weight: any DynamicItem, suspendedFrom pivot: CGPoint) {
        gravity = GravityBehavior(items: [weight])
        rod = AttachmentBehavior(item: weight, attachedToAnchor: pivot)
        push = PushBehavior(items: [weight], mode: .instantaneous)
        push.active = false
        super.init()
        addChildBehavior(gravity)
        addChildBehavior(rod)
        addChildBehavior(push)
    }

    /// Gives the weight one impulse on the next step: `magnitude` in UIKit units (1 = 100
    /// mass·pt/s), toward `angle` radians (0 = +x, π/2 = down).
    package func kick(angle: CGFloat, magnitude: CGFloat) {
        push.setAngle(angle, magnitude: magnitude)
        push.active = true
    }
}
