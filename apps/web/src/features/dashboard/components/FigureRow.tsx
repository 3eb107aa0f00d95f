import { Col, type ColProps, Row } from "antd";
import { Figure, type FigureProps } from "./Figure";

/**
 * Headline figures side by side, each in a column sized by `col` (antd Col props), wrapping on a narrow screen;
 * a figure given as `false` is left out.
 */
export function FigureRow({ figures, col }: { figures: readonly (FigureProps | false)[]; col: ColProps }) {
  return (
    <Row gutter={[16, 16]}>
      {figures.map(
        (figure) =>
          figure && (
            <Col key={figure.testId} {...col}>
              <Figure {...figure} />
            </Col>
          ),
      )}
    </Row>
  );
}
