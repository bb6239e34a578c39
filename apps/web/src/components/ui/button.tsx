import { clsx } from "clsx";
import type { ButtonHTMLAttributes } from "react";
import "./button.css";

interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: "primary" | "secondary" | "ghost" | "danger" | "gold";
  size?: "sm" | "md" | "lg";
  block?: boolean;
}

export function Button({ variant = "primary", size = "md", block, className, type = "button", ...rest }: ButtonProps) {
  return (
    <button
      type={type}
      className={clsx("btn", `btn-${variant}`, size !== "md" && `btn-${size}`, block && "btn-block", className)}
      {...rest}
    />
  );
}
