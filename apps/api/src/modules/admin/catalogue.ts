import type { ZodTypeProvider } from "@fastify/type-provider-zod";
import {
  adminPageOf,
  envelopeOf,
  ok,
  ZAdminGoodsIdParams,
  ZAdminGoodsReorder,
  ZAdminPayGoods,
  ZAdminPayGoodsCreate,
  ZAdminPayGoodsEdit,
  ZAdminPayGoodsQuery,
  ZAdminShopGoods,
  ZAdminShopGoodsCreate,
  ZAdminShopGoodsEdit,
  ZAdminShopGoodsQuery,
} from "@yuelu/contracts";
import {
  adminPayGoods,
  adminPayGoodsList,
  adminShopGoods,
  adminShopGoodsList,
  createPayGoods,
  createShopGoods,
  editPayGoods,
  editShopGoods,
  reorderPayGoods,
  reorderShopGoods,
} from "@yuelu/domain";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { actorOf } from "./actor.ts";

const tags = ["admin: catalogue"];
const ZSorted = z.array(z.object({ goodsId: z.number().int(), sort: z.number().int() }));

/**
 * /voice_yuelu/admin/goods/pay (membership plans and duration cards, fen) and /admin/goods/shop (bean
 * goods): list, one, create, edit (PATCH: prices, names, enabled, sort…), reorder. docs/admin.md "Catalogue".
 */
export default async function adminCatalogueRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const domain = app.domain;

  app.get(
    "/admin/goods/pay",
    { schema: { tags, querystring: ZAdminPayGoodsQuery, response: { 200: envelopeOf(adminPageOf(ZAdminPayGoods)) } } },
    async (req) => ok(await adminPayGoodsList(domain, req.query)),
  );
  app.post(
    "/admin/goods/pay",
    { schema: { tags, body: ZAdminPayGoodsCreate, response: { 200: envelopeOf(ZAdminPayGoods) } } },
    async (req) => ok(await createPayGoods(domain, await actorOf(req), req.body)),
  );
  app.post(
    "/admin/goods/pay/reorder",
    { schema: { tags, body: ZAdminGoodsReorder, response: { 200: envelopeOf(ZSorted) } } },
    async (req) => ok(await reorderPayGoods(domain, await actorOf(req), req.body.goodsIds)),
  );
  app.get(
    "/admin/goods/pay/:goodsId",
    { schema: { tags, params: ZAdminGoodsIdParams, response: { 200: envelopeOf(ZAdminPayGoods) } } },
    async (req) => ok(await adminPayGoods(domain, req.params.goodsId)),
  );
  app.patch(
    "/admin/goods/pay/:goodsId",
    {
      schema: {
        tags,
        params: ZAdminGoodsIdParams,
        body: ZAdminPayGoodsEdit,
        response: { 200: envelopeOf(ZAdminPayGoods) },
      },
    },
    async (req) => ok(await editPayGoods(domain, await actorOf(req), req.params.goodsId, req.body)),
  );

  app.get(
    "/admin/goods/shop",
    {
      schema: { tags, querystring: ZAdminShopGoodsQuery, response: { 200: envelopeOf(adminPageOf(ZAdminShopGoods)) } },
    },
    async (req) => ok(await adminShopGoodsList(domain, req.query)),
  );
  app.post(
    "/admin/goods/shop",
    { schema: { tags, body: ZAdminShopGoodsCreate, response: { 200: envelopeOf(ZAdminShopGoods) } } },
    async (req) => ok(await createShopGoods(domain, await actorOf(req), req.body)),
  );
  app.post(
    "/admin/goods/shop/reorder",
    { schema: { tags, body: ZAdminGoodsReorder, response: { 200: envelopeOf(ZSorted) } } },
    async (req) => ok(await reorderShopGoods(domain, await actorOf(req), req.body.goodsIds)),
  );
  app.get(
    "/admin/goods/shop/:goodsId",
    { schema: { tags, params: ZAdminGoodsIdParams, response: { 200: envelopeOf(ZAdminShopGoods) } } },
    async (req) => ok(await adminShopGoods(domain, req.params.goodsId)),
  );
  app.patch(
    "/admin/goods/shop/:goodsId",
    {
      schema: {
        tags,
        params: ZAdminGoodsIdParams,
        body: ZAdminShopGoodsEdit,
        response: { 200: envelopeOf(ZAdminShopGoods) },
      },
    },
    async (req) => ok(await editShopGoods(domain, await actorOf(req), req.params.goodsId, req.body)),
  );
}
