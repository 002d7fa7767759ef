import Dynamics
import Foundation

// The gallery: scenes beyond Apple's sample that show several behaviours working together.

extension UIKitScenes {
    /// Newton's cradle: five balls on rigid strings, elasticity 1, no friction; the first is pulled
    /// out 50° and let go, and the impact travels along the row. The balls hang 3 pt apart, more
    /// than the engine's 2 pt speculative margin, so each collision is solved on its own, one
    /// after the other, as in a real cradle (touching balls would share the impulse at once).
    static let newtonsCradle = UIKitScene(
        name: "newtons_cradle",
        summary: "Newton's cradle: five elastic balls on strings pass an impact along the row",
        referenceBounds: stage
    ) { scene in
        let radius: CGFloat = 20, length: CGFloat = 200, spacing: CGFloat = 43
        let collision = CollisionBehavior()
        collision.collisionMode = .items
        collision.collisionDelegate = scene.contacts
        let gravity = GravityBehavior()
        let material = DynamicItemBehavior()
        material.elasticity = 1
        material.friction = 0
        material.allowsRotation = false
        for k in 0 ..< 5 {
            let pivot = CGPoint(x: 320 + spacing * CGFloat(k - 2), y: 60)
            let swing: CGFloat = k == 0 ? -50 * CGFloat.pi / 180 : 0
            let center = CGPoint(x: pivot.x + length * sin(swing), y: pivot.y + length * cos(swing))
            let ball = scene.track(BasicDynamicItem(center: center, size: CGSize(width: 2 * radius, height: 2 * radius),
                                                    collisionBoundsType: .ellipse, name: "ball \(k + 1)"))
            collision.addItem(ball)
            gravity.addItem(ball)
            material.addItem(ball)
            scene.animator.addBehavior(AttachmentBehavior(item: ball, attachedToAnchor: pivot))
        }
        for behavior in [collision, gravity, material] as [DynamicBehavior] { scene.animator.addBehavior(behavior) }
    }

    /// A pyramid of 36 boxes (8 rows of 36 pt boxes, friction 0.6) on the floor; after 1 s a heavy
    /// ball is thrown at it.
    static let pyramid = UIKitScene(
        name: "pyramid",
        summary: "A pyramid of 36 boxes; after 1 s a heavy ball is thrown at it",
        referenceBounds: stage
    ) { scene in
        let side: CGFloat = 36, rows = 8
        let collision = CollisionBehavior()
        collision.translatesReferenceBoundsIntoBoundary = true
        collision.collisionDelegate = scene.contacts
        let gravity = GravityBehavior()
        let boxes = DynamicItemBehavior()
        boxes.friction = 0.6
        for row in 0 ..< rows {
            for column in 0 ..< rows - row {
                let x = 420 + side * (CGFloat(column) - CGFloat(rows - row - 1) / 2)
                let y = stage.maxY - side / 2 - side * CGFloat(row)
                let box = scene.track(BasicDynamicItem(center: CGPoint(x: x, y: y), size: CGSize(width: side, height: side),
                                                       name: "box \(row).\(column)"))
                collision.addItem(box)
                gravity.addItem(box)
                boxes.addItem(box)
            }
        }
        let ball = scene.track(BasicDynamicItem(center: CGPoint(x: 40, y: stage.maxY - 22), size: CGSize(width: 44, height: 44),
                                                collisionBoundsType: .ellipse, name: "ball"))
        collision.addItem(ball)
        gravity.addItem(ball)
        let heavy = DynamicItemBehavior(items: [ball])
        heavy.density = 6
        heavy.friction = 0.4
        heavy.elasticity = 0.2
        for behavior in [collision, gravity, boxes, heavy] as [DynamicBehavior] { scene.animator.addBehavior(behavior) }
        let steps = SceneState(0)
        let director = DynamicBehavior()
        director.action = {
            steps.value += 1
            if steps.value == stepsPerSecond {
                heavy.addLinearVelocity(CGPoint(x: 1100, y: -420), for: ball)
            }
        }
        scene.animator.addBehavior(director)
    }

    /// Rain of mixed shapes: rectangles, ellipses and polygons (`.path` items: triangles to
    /// hexagons) fall one every 5 steps onto two slanted shelves and the floor, until 140 have
    /// fallen. Sizes, shapes and spin come from a seeded generator.
    static let rain = UIKitScene(
        name: "rain",
        summary: "Rectangles, ellipses and polygons rain onto two shelves and pile up",
        referenceBounds: stage
    ) { scene in
        let collision = CollisionBehavior()
        collision.translatesReferenceBoundsIntoBoundary = true
        collision.addBoundary(withIdentifier: "left shelf", from: CGPoint(x: 40, y: 150), to: CGPoint(x: 250, y: 205))
        collision.addBoundary(withIdentifier: "right shelf", from: CGPoint(x: 600, y: 225), to: CGPoint(x: 390, y: 280))
        collision.collisionDelegate = scene.contacts
        let gravity = GravityBehavior()
        let material = DynamicItemBehavior()
        material.elasticity = 0.3
        material.friction = 0.4
        for behavior in [collision, gravity, material] as [DynamicBehavior] { scene.animator.addBehavior(behavior) }

        let generator = SceneState(SplitMix64Generator(seed: 7))
        let steps = SceneState(0)
        let director = DynamicBehavior()
        director.action = { [weak scene] in
            guard let scene else { return }
            steps.value += 1
            guard steps.value % 5 == 1, scene.items.count < 140 else { return }
            let k = scene.items.count
            let x = generator.value.uniform(40 ... 600)
            let item = Self.rainDrop(number: k, x: x, generator: &generator.value)
            scene.track(item)
            collision.addItem(item)
            gravity.addItem(item)
            material.addItem(item)
            material.addAngularVelocity(CGFloat(generator.value.uniform(-4 ... 4)), for: item)
        }
        scene.animator.addBehavior(director)
    }

    /// One falling item of the rain: every third a rectangle, an ellipse or a polygon, 14…34 pt.
    static func rainDrop(number k: Int, x: Double, generator: inout SplitMix64Generator) -> BasicDynamicItem {
        let w = generator.uniform(14 ... 34), h = generator.uniform(14 ... 34)
        let center = CGPoint(x: x, y: 24)
        switch k % 3 {
        case 0:
            return BasicDynamicItem(center: center, size: CGSize(width: w, height: h), name: "drop \(k)")
        case 1:
            return BasicDynamicItem(center: center, size: CGSize(width: w, height: h), collisionBoundsType: .ellipse, name: "drop \(k)")
        default:
            let sides = 3 + Int(generator.next() % 4)
            let radius = max(w, h) / 2
            let item = BasicDynamicItem(center: center, size: CGSize(width: 2 * radius, height: 2 * radius),
                                        collisionBoundsType: .path, name: "drop \(k)")
            item.collisionBoundingPath = regularPolygon(sides: sides, radius: radius)
            return item
        }
    }

    /// A regular polygon of `sides` corners on a circle of `radius` points around the origin,
    /// the first corner straight up.
    static func regularPolygon(sides: Int, radius: Double) -> BezierPath {
        let path = BezierPath()
        for k in 0 ..< sides {
            let a = -Double.pi / 2 + 2 * Double.pi * Double(k) / Double(sides)
            let p = CGPoint(x: radius * cos(a), y: radius * sin(a))
            if k == 0 { path.move(to: p) } else { path.addLine(to: p) }
        }
        path.close()
        return path
    }

    /// A chain of 16 links joined by pin attachments hangs from an anchor; it starts straight out
    /// to the side, swings down and drapes over an anchored ball.
    static let chain = UIKitScene(
        name: "chain",
        summary: "A chain of 16 pinned links swings down from an anchor and drapes over a ball",
        referenceBounds: stage
    ) { scene in
        let linkLength: CGFloat = 24, anchor = CGPoint(x: 140, y: 60)
        let collision = CollisionBehavior()
        collision.translatesReferenceBoundsIntoBoundary = true
        collision.collisionDelegate = scene.contacts
        let gravity = GravityBehavior()
        let material = DynamicItemBehavior()
        material.friction = 0.4
        let obstacle = scene.track(BasicDynamicItem(center: CGPoint(x: 185, y: 280), size: CGSize(width: 90, height: 90),
                                                    collisionBoundsType: .ellipse, name: "ball"))
        collision.addItem(obstacle)
        let fixed = DynamicItemBehavior(items: [obstacle])
        fixed.isAnchored = true
        var previous: BasicDynamicItem?
        for k in 0 ..< 16 {
            let link = scene.track(BasicDynamicItem(center: CGPoint(x: anchor.x + linkLength * (CGFloat(k) + 0.5), y: anchor.y),
                                                    size: CGSize(width: linkLength, height: 8), name: "link \(k + 1)"))
            collision.addItem(link)
            gravity.addItem(link)
            material.addItem(link)
            let joint = CGPoint(x: anchor.x + linkLength * CGFloat(k), y: anchor.y)
            if let previous {
                scene.animator.addBehavior(AttachmentBehavior.pinAttachment(with: previous, attachedTo: link, attachmentAnchor: joint))
            } else {
                scene.animator.addBehavior(AttachmentBehavior(item: link, offsetFromCenter: CGPoint(x: -linkLength / 2, y: 0),
                                                              attachedToAnchor: joint))
            }
            previous = link
        }
        for behavior in [collision, gravity, material, fixed] as [DynamicBehavior] { scene.animator.addBehavior(behavior) }
    }

    /// Fields: 240 small items (8 × 8 pt, mass 0.0064 or 0.005) swirl under a vortex field
    /// (strength 0.00012, within 200 pt: about 300 pt/s² on these light items, since UIKit's vortex
    /// divides by the mass twice) and a radial gravity field (8: 800 pt/s², within 420 pt) at the
    /// center and a slowly changing noise field (0.0125: about 140 pt/s² on them), with resistance
    /// 0.8, colliding with the bounds only: they settle into a churning ring about 150 pt out,
    /// where the spin's pull outward balances the gravity.
    static let fields = UIKitScene(
        name: "fields",
        summary: "240 small items swirl under vortex, radial gravity and noise fields",
        referenceBounds: stage
    ) { scene in
        let center = CGPoint(x: stage.midX, y: stage.midY)
        let vortex = FieldBehavior.vortexField()
        vortex.position = center
        vortex.strength = 0.000_12
        vortex.region = Region(radius: 200)
        let attractor = FieldBehavior.radialGravityField(position: center)
        attractor.strength = 8
        attractor.falloff = 0   // uniform: the ring forms where the spin balances it (UIKit's default is 2)
        attractor.region = Region(radius: 420)
        let noise = FieldBehavior.noiseField(smoothness: 0.5, animationSpeed: 0.5)
        noise.strength = 0.0125
        let bounds = CollisionBehavior()
        bounds.collisionMode = .boundaries
        bounds.translatesReferenceBoundsIntoBoundary = true
        let material = DynamicItemBehavior()
        material.resistance = 0.8
        material.elasticity = 0.5
        var generator = SplitMix64Generator(seed: 11)
        for k in 0 ..< 240 {
            let x = 16 + 16 * Double(k % 38) + generator.uniform(-3 ... 3)
            let y = 30 + 54 * Double(k / 38) + generator.uniform(-3 ... 3)
            let item = scene.track(BasicDynamicItem(center: CGPoint(x: x, y: y), size: CGSize(width: 8, height: 8),
                                                    collisionBoundsType: k % 2 == 0 ? .ellipse : .rectangle, name: "mote \(k)"))
            for field in [vortex, attractor, noise] { field.addItem(item) }
            bounds.addItem(item)
            material.addItem(item)
        }
        for behavior in [vortex, attractor, noise, bounds, material] as [DynamicBehavior] { scene.animator.addBehavior(behavior) }
    }

    /// An item group tumbling: an L of three squares and a T of four, each a `DynamicItemGroup`
    /// moving as one rigid body, tumble down a staircase boundary.
    static let groupTumble = UIKitScene(
        name: "group_tumble",
        summary: "Two item groups (an L and a T of squares) tumble down a staircase",
        referenceBounds: stage
    ) { scene in
        let s: CGFloat = 26
        func square(_ x: CGFloat, _ y: CGFloat, _ name: String) -> BasicDynamicItem {
            scene.track(BasicDynamicItem(center: CGPoint(x: x, y: y), size: CGSize(width: s, height: s), name: name))
        }
        let ell = DynamicItemGroup(items: [square(60, 30, "L1"), square(60, 30 + s, "L2"), square(60 + s, 30 + s, "L3")])
        let tee = DynamicItemGroup(items: [square(150 - s, 30, "T1"), square(150, 30, "T2"), square(150 + s, 30, "T3"),
                                           square(150, 30 + s, "T4")])
        let stairs = BezierPath()
        stairs.move(to: CGPoint(x: 0, y: 110))
        var x: CGFloat = 0, y: CGFloat = 110
        for _ in 0 ..< 6 {
            x += 90
            stairs.addLine(to: CGPoint(x: x, y: y))
            y += 45
            stairs.addLine(to: CGPoint(x: x, y: y))
        }
        stairs.addLine(to: CGPoint(x: stage.maxX, y: y))
        let collision = CollisionBehavior(items: [ell, tee])
        collision.translatesReferenceBoundsIntoBoundary = true
        collision.addBoundary(withIdentifier: "stairs", for: stairs)
        collision.collisionDelegate = scene.contacts
        let gravity = GravityBehavior(items: [ell, tee])
        let material = DynamicItemBehavior(items: [ell, tee])
        material.elasticity = 0.35
        material.friction = 0.3
        material.addLinearVelocity(CGPoint(x: 380, y: 0), for: ell)
        material.addLinearVelocity(CGPoint(x: 120, y: 0), for: tee)
        material.addAngularVelocity(2, for: tee)
        for behavior in [collision, gravity, material] as [DynamicBehavior] { scene.animator.addBehavior(behavior) }
    }

    /// A ray sweeping a pile: thirty mixed items (boxes, discs, turned bars) fall into a heap, and a
    /// 900 pt ray from a lamp at the top swings across it and back every 6 s of simulated time.
    /// Each picture draws the ray up to its first hit (`.`), the first hit (`X`) with its surface
    /// normal, and every later hit along the ray (`x`), from ``DynamicAnimator/raycastAll(from:to:)``:
    /// the query a hit test or a line of sight uses, answered through the broad-phase grid.
    static let raySweep = UIKitScene(
        name: "ray_sweep",
        summary: "A ray from a lamp sweeps a pile of thirty items; its hits and normals are drawn",
        referenceBounds: stage
    ) { scene in
        var items: [BasicDynamicItem] = []
        for k in 0..<30 {
            let column = k % 10, row = k / 10
            let center = CGPoint(x: 150 + 34 * CGFloat(column) + 9 * CGFloat(row % 2), y: 60 + 40 * CGFloat(row))
            let item: BasicDynamicItem
            switch k % 3 {
            case 0: item = BasicDynamicItem(center: center, size: CGSize(width: 26, height: 26), name: "box \(k)")
            case 1:
                let size = CGSize(width: 28, height: 28)
                item = BasicDynamicItem(center: center, size: size, collisionBoundsType: .ellipse, name: "disc \(k)")
            default:
                item = BasicDynamicItem(center: center, size: CGSize(width: 44, height: 12), name: "bar \(k)")
                item.transform = CGAffineTransform(rotationAngle: 0.4 * CGFloat(k % 7) - 1.2)
            }
            items.append(scene.track(item))
        }
        let collision = CollisionBehavior(items: items)
        collision.translatesReferenceBoundsIntoBoundary = true
        collision.collisionDelegate = scene.contacts
        let gravity = GravityBehavior(items: items)
        let material = DynamicItemBehavior(items: items)
        material.friction = 0.4
        material.elasticity = 0.2
        for behavior in [collision, gravity, material] as [DynamicBehavior] { scene.animator.addBehavior(behavior) }
        let animator = scene.animator
        let lamp = CGPoint(x: 320, y: 24)
        scene.overlays = {
            // the ray's angle below the horizon swings from 15° to 165° and back, by simulated time
            let phase = animator.elapsedTime.truncatingRemainder(dividingBy: 6) / 6
            let swing = phase < 0.5 ? 2 * phase : 2 - 2 * phase
            let angle = (15 + 150 * swing) * .pi / 180
            let end = CGPoint(x: lamp.x + 900 * cos(angle), y: lamp.y + 900 * sin(angle))
            let hits = animator.raycastAll(from: lamp, to: end)
            guard let first = hits.first else { return [.line(from: lamp, to: end, character: ".")] }
            var marks: [ASCIIRenderer.Overlay] = [
                .line(from: lamp, to: first.point, character: "."),
                .line(from: first.point,
                      to: CGPoint(x: first.point.x + 24 * first.normal.dx, y: first.point.y + 24 * first.normal.dy)),
                .point(lamp, character: "*"),
            ]
            marks += hits.dropFirst().map { .point($0.point, character: "x") }
            marks.append(.point(first.point, character: "X"))
            return marks
        }
    }
}
