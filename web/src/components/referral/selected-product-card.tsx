import { NOT_FOUND, stripLegalSuffixes } from '@app/contracts';
import type { ReactNode } from 'react';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { cn } from '@/lib/utils';
import type { ProductInfo } from '@/stores/search-slice';

/**
 * Spec 2 'Selected Product': the product (hidden when the search did not find one), the company with its
 * legal suffixes stripped (spec 9) and the description.
 */
export function SelectedProductCard({
  product,
  className,
  children,
}: {
  product: ProductInfo;
  className?: string;
  children?: ReactNode;
}) {
  const company = product.company === NOT_FOUND ? NOT_FOUND : stripLegalSuffixes(product.company);
  return (
    <Card className={cn('text-left', className)} role="region" aria-labelledby="selected-product-title">
      <CardHeader className="pb-4">
        <CardTitle id="selected-product-title" className="text-lg">
          Selected Product
        </CardTitle>
      </CardHeader>
      <CardContent>
        <dl className="grid gap-3 text-sm">
          {product.product !== NOT_FOUND ? (
            <div className="grid gap-0.5">
              <dt className="font-medium text-muted-foreground">Product</dt>
              <dd className="text-base font-semibold text-foreground">{product.product}</dd>
            </div>
          ) : null}
          <div className="grid gap-0.5">
            <dt className="font-medium text-muted-foreground">Company</dt>
            <dd className="text-foreground">{company}</dd>
          </div>
          <div className="grid gap-0.5">
            <dt className="font-medium text-muted-foreground">Description</dt>
            <dd className="text-foreground">{product.description}</dd>
          </div>
        </dl>
        {children}
      </CardContent>
    </Card>
  );
}
