import DynamicsEngine
import DynamicsScenes

/// Seeded generator for randomised tests: the scene catalogue's SplitMix64 (same seed, same
/// sequence, on every platform).
typealias SplitMix64 = SplitMix64Generator

func makeWorld(gravity: Vec2 = Vec2(0, 1000), sleep: Bool = true, validate: Bool = true) -> World {
    var d = WorldDef()
    d.gravity = gravity
    d.enableSleep = sleep
    d.validate = validate
    return World(def: d)
}

@discardableResult
func addBox(_ w: World, _ type: BodyType = .dynamic, at p: Vec2, half: Vec2, angle: Float = 0, density: Float = 1,
            friction: Float = 0.6, restitution: Float = 0) -> BodyID {
    var bd = BodyDef()
    bd.type = type
    bd.position = p
    bd.angle = angle
    let b = w.createBody(bd)
    var sd = ShapeDef()
    sd.density = density
    sd.friction = friction
    sd.restitution = restitution
    w.createShape(on: b, sd, .box(halfWidth: half.x, halfHeight: half.y, center: .zero, angle: 0))
    return b
}

@discardableResult
func addCircle(_ w: World, _ type: BodyType = .dynamic, at p: Vec2, radius: Float, density: Float = 1,
               friction: Float = 0.6, restitution: Float = 0) -> BodyID {
    var bd = BodyDef()
    bd.type = type
    bd.position = p
    let b = w.createBody(bd)
    var sd = ShapeDef()
    sd.density = density
    sd.friction = friction
    sd.restitution = restitution
    w.createShape(on: b, sd, .circle(center: .zero, radius: radius))
    return b
}

/// A chain of `links` boxes of half size `half`, lying out to the right (+x) from a 4-unit static
/// anchor at `anchor`, each pinned to the one before by a revolute joint at their shared end (the
/// first at the anchor's centre). Returns the links, in order.
@discardableResult
func addChain(_ w: World, anchor: Vec2, links: Int, half: Vec2) -> [BodyID] {
    var prev = addBox(w, .static, at: anchor, half: Vec2(4, 4))
    var chain: [BodyID] = []
    for i in 0..<links {
        let link = addBox(w, at: Vec2(anchor.x + Float(2 * i + 1) * half.x, anchor.y), half: half)
        var jd = JointDef(kind: .revolute)
        jd.bodyA = prev; jd.bodyB = link
        jd.localAnchorA = i == 0 ? .zero : Vec2(half.x, 0); jd.localAnchorB = Vec2(-half.x, 0)
        _ = w.createJoint(jd)
        prev = link
        chain.append(link)
    }
    return chain
}

func run(_ w: World, steps: Int, dt: Float = 1.0 / 60, substeps: Int = 4) {
    for _ in 0..<steps {
        w.step(dt: dt, substeps: substeps)
    }
}

/// A static body at the origin holding one two-sided segment.
@discardableResult
func addSegment(_ w: World, from a: Vec2, to b: Vec2, friction: Float = 0.6) -> BodyID {
    var bd = BodyDef()
    bd.type = .static
    let body = w.createBody(bd)
    var sd = ShapeDef()
    sd.friction = friction
    w.createShape(on: body, sd, .segment(a, b))
    return body
}

/// Steps a world made with `validate: true` and returns the first validation problems seen, tagged
/// with the step (empty when every step validated).
func runValidated(_ w: World, steps: Int, dt: Float = 1.0 / 60, substeps: Int = 4) -> [String] {
    for _ in 0..<steps {
        w.step(dt: dt, substeps: substeps)
        if !w.validationErrors.isEmpty { return w.validationErrors.map { "step \(w.stepCount): \($0)" } }
    }
    return []
}

/// Uniform Float in `range` from a seeded generator.
func uniform(_ range: ClosedRange<Float>, _ rng: inout SplitMix64) -> Float {
    Float.random(in: range, using: &rng)
}
