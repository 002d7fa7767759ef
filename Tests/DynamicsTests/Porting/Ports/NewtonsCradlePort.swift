// Port of Apple's "Newton's Cradle and UIKit Dynamics" playground (Swift blog, 2016;
// https://developer.apple.com/swift/blog/?id=35) in p-sun/iOS-Effects-and-Animations's Swift 3
// version (Newton'sCradle/NewtonsCradle.playground: Sources/NewtonsCradle.swift, Contents.swift):
// balls hang on attachments of length 100 from anchors above them, in one collision behaviour
// with elasticity 1, resistance 0.2 and no rotation; the user drags a ball with a snap behaviour
// and lets go.
//
// Edits beyond deleting `UI`: `UIView` → `View` (colours kept as names, no layer, no drawing, no
// KVO); touches → the test calls `touchesBegan/Moved/Ended` with points; the playground's settings
// are the ones its Contents.swift makes, with five balls (its "add more colours") hanging 1 pt
// apart (its `ballPadding`, which it invites you to change; 2 in the playground).
import Dynamics
import Foundation
import Testing

@Suite("Port: Newton's cradle (Apple's UIKit Dynamics playground)")
struct NewtonsCradlePort {
    final class NewtonsCradle: View {
        private let colors: [String]
        private(set) var balls: [View] = []

        private var animator: DynamicAnimator?
        private var ballsToAttachmentBehaviors: [ObjectIdentifier: AttachmentBehavior] = [:]
        private var snapBehavior: SnapBehavior?

        let collisionBehavior: CollisionBehavior
        let gravityBehavior: GravityBehavior
        let itemBehavior: DynamicItemBehavior

        init(colors: [String]) {
            self.colors = colors
            collisionBehavior = CollisionBehavior(items: [])
            gravityBehavior = GravityBehavior(items: [])
            itemBehavior = DynamicItemBehavior(items: [])

            super.init(frame: CGRect(x: 0, y: 0, width: 480, height: 320))
            backgroundColor = "white"
            animator = DynamicAnimator(referenceBounds: bounds)
            animator?.addBehavior(collisionBehavior)
            animator?.addBehavior(gravityBehavior)
            animator?.addBehavior(itemBehavior)

            createBallViews()
        }

        var dynamicAnimator: DynamicAnimator { animator! }

        func createBallViews() {
            for color in colors {
                let ball = View(frame: CGRect.zero)
                ball.backgroundColor = color
                balls.append(ball)
                layoutBalls()
            }
        }

        var attachmentBehaviors: [AttachmentBehavior] {
            balls.map { ballsToAttachmentBehaviors[ObjectIdentifier($0)]! }
        }

        var ballSize: CGSize = CGSize(width: 50, height: 50) {
            didSet { layoutBalls() }
        }

        var ballPadding: Double = 0.0 {
            didSet { layoutBalls() }
        }

        private func layoutBalls() {
            let requiredWidth = CGFloat(balls.count) * (ballSize.width + CGFloat(ballPadding))
            for (index, ball) in balls.enumerated() {
                // Remove any attachment behavior that already exists.
                if let attachmentBehavior = ballsToAttachmentBehaviors[ObjectIdentifier(ball)] {
                    animator?.removeBehavior(attachmentBehavior)
                }

                // Remove the ball from the appropriate behaviors before update its frame.
                collisionBehavior.removeItem(ball)
                gravityBehavior.removeItem(ball)
                itemBehavior.removeItem(ball)

                // Determine the horizontal position of the ball based on the number of balls.
                let ballXOrigin = ((bounds.width - requiredWidth) / 2.0) + (CGFloat(index) * (ballSize.width + CGFloat(ballPadding)))
                ball.frame = CGRect(x: ballXOrigin, y: bounds.midY, width: ballSize.width, height: ballSize.height)

                // Create the attachment behavior.
                let attachmentBehavior = AttachmentBehavior(item: ball, attachedToAnchor: CGPoint(x: ball.frame.midX, y: bounds.midY - 50))
                ballsToAttachmentBehaviors[ObjectIdentifier(ball)] = attachmentBehavior
                animator?.addBehavior(attachmentBehavior)

                // Add the collision, gravity and item behaviors.
                collisionBehavior.addItem(ball)
                gravityBehavior.addItem(ball)
                itemBehavior.addItem(ball)
            }
        }

        func touchesBegan(at touchLocation: CGPoint) {
            for ball in balls {
                if ball.frame.contains(touchLocation) {
                    snapBehavior = SnapBehavior(item: ball, snapTo: touchLocation)
                    animator?.addBehavior(snapBehavior!)
                }
            }
        }

        func touchesMoved(to touchLocation: CGPoint) {
            if let snapBehavior = snapBehavior {
                snapBehavior.snapPoint = touchLocation
            }
        }

        func touchesEnded() {
            if let snapBehavior = snapBehavior {
                animator?.removeBehavior(snapBehavior)
            }
            snapBehavior = nil
        }
    }

    /// The playground's cradle with five balls 1 pt apart.
    func makeCradle() -> NewtonsCradle {
        let newtonsCradle = NewtonsCradle(colors: ["pink", "blue", "orange", "green", "purple"])
        newtonsCradle.ballSize = CGSize(width: 60, height: 60)
        newtonsCradle.ballPadding = 1.0
        newtonsCradle.itemBehavior.elasticity = 1.0
        newtonsCradle.itemBehavior.resistance = 0.2
        newtonsCradle.itemBehavior.allowsRotation = false
        newtonsCradle.gravityBehavior.angle = CGFloat(Double.pi / 2)
        newtonsCradle.gravityBehavior.magnitude = 1.0
        for attachmentBehavior in newtonsCradle.attachmentBehaviors {
            attachmentBehavior.length = 100
        }
        return newtonsCradle
    }

    /// Lets the cradle hang still, pulls the first ball out with a snap as a finger would (80 pt
    /// left and 40 pt up), lets go, and follows every ball's horizontal swing (pt from its place at
    /// rest) for `seconds`.
    func pullAndRelease(_ cradle: NewtonsCradle, seconds: Double) -> (pulled: CGFloat, swings: [[CGFloat]]) {
        let animator = cradle.dynamicAnimator
        for _ in 0..<120 { animator.step() }
        let rest = cradle.balls.map(\.center.x)
        let first = cradle.balls[0]
        cradle.touchesBegan(at: first.center)
        cradle.touchesMoved(to: CGPoint(x: first.center.x - 80, y: first.center.y - 40))
        for _ in 0..<90 { animator.step() }
        let pulled = first.center.x - rest[0]
        cradle.touchesEnded()
        var swings = [[CGFloat]](repeating: [], count: cradle.balls.count)
        for _ in 0..<Int(seconds * 60) {
            animator.step()
            for (k, ball) in cradle.balls.enumerated() { swings[k].append(ball.center.x - rest[k]) }
        }
        return (pulled, swings)
    }

    @Test func theImpactPassesAlongTheRowToTheLastBall() {
        let cradle = makeCradle()
        // a swing to the far side and back takes about one period, 2π√(L/g) ≈ 2 s: follow the
        // first swing out of the last ball
        let (pulled, swings) = pullAndRelease(cradle, seconds: 1.2)
        #expect(pulled < -70)
        let last = swings[4].max()!
        #expect(last > 0.7 * -pulled)   // resistance 0.2 takes some of it (see the next test)
        for k in 1...3 {
            #expect(swings[k].map(abs).max()! < 0.1 * last, "ball \(k + 1) moved")
        }
        // the first ball stops where it struck: it does not follow through nor bounce back
        let afterImpact = swings[0].drop { $0 < -1 }
        #expect(afterImpact.map(abs).max() ?? 0 < 0.1 * last)
    }

    @Test func withoutResistanceTheLastBallRisesAsHighAsTheFirstFellAndSendsItBack() {
        let cradle = makeCradle()
        cradle.itemBehavior.resistance = 0
        let (pulled, swings) = pullAndRelease(cradle, seconds: 3.5)
        // the rods are 100 pt: a swing x pt out is a rise of 100 − √(100² − x²)
        func rise(_ x: CGFloat) -> CGFloat { 100 - (100 * 100 - x * x).squareRoot() }
        let firstSwing = swings[4].prefix(90).max()!
        // e = 1 impacts lose nothing, and a rigid rod keeps its pendulum's amplitude to 1 % over
        // 10 s (SpringEnergyTests): 1 % either way
        #expect(rise(firstSwing) > 0.99 * rise(-pulled))
        #expect(rise(firstSwing) < 1.01 * rise(-pulled))
        // it swings back, strikes the row, and the first ball goes out again nearly as far
        let secondSwing = -swings[0].suffix(100).min()!
        #expect(rise(secondSwing) > 0.98 * rise(-pulled))
        for k in 1...3 { #expect(swings[k].map(abs).max()! < 0.1 * firstSwing) }
    }
}
