import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { QR_SIZE, QrBox, QrMask } from "./qr-box.tsx";

function svgOf(img: HTMLElement): string {
  const src = img.getAttribute("src") ?? "";
  return decodeURIComponent(src.replace("data:image/svg+xml;charset=utf-8,", ""));
}

describe("QrBox", () => {
  it("draws the text's QR code as a 140×140 data-URL image", async () => {
    render(<QrBox value="https://pay.example/order/42" label="扫码支付" />);
    const img = await screen.findByRole("img", { name: "扫码支付" });
    expect(img.getAttribute("src")).toMatch(/^data:image\/svg\+xml/);
    expect(img).toHaveAttribute("width", String(QR_SIZE));
    expect(img).toHaveAttribute("height", String(QR_SIZE));
    expect(screen.getByTestId("qr-box")).toHaveStyle({ width: "140px", height: "140px" });
    expect(svgOf(img)).toMatch(/<svg[^>]*viewBox="0 0 (\d+) \1"/);
    expect(svgOf(img)).toContain("<path");
  });

  it("draws a new code when the text changes", async () => {
    const { rerender } = render(<QrBox value="order-1" label="qr" />);
    const first = svgOf(await screen.findByRole("img"));
    rerender(<QrBox value="order-2-a-longer-payment-url" label="qr" />);
    await waitFor(() => expect(svgOf(screen.getByRole("img"))).not.toBe(first));
  });

  it("without a value shows only the mask ('log in to view')", () => {
    render(<QrBox value={null} label="qr" mask={<QrMask>登录后查看</QrMask>} />);
    expect(screen.queryByRole("img")).toBeNull();
    expect(screen.getByTestId("qr-mask")).toHaveTextContent("登录后查看");
  });

  it("a mask with an action is a button over the code ('order timed out, click to refresh')", async () => {
    const refresh = vi.fn();
    render(<QrBox value="order-3" label="qr" mask={<QrMask onClick={refresh}>订单已超时，点击刷新</QrMask>} />);
    await screen.findByRole("img");
    await userEvent.click(screen.getByRole("button", { name: "订单已超时，点击刷新" }));
    expect(refresh).toHaveBeenCalledOnce();
  });
});
